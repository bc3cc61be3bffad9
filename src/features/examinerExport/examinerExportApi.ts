/**
 * Calls of the examiner's export (administrators): ask for an export (its single-use download
 * link comes back) and read its progress. The zip itself is a plain browser download of the link.
 * Every call goes through the one HTTP client, so a failed call throws an ApiError with the
 * server's message.
 */
import type { ExaminerExportDto, ExaminerExportRequest } from '@common/examinerExport';
import { get, post, REST } from '@src/api/client';

/** POST REST/examiner_exports: checks and counts the scope, answers the export and its link. */
export function requestExport(body: ExaminerExportRequest): Promise<ExaminerExportDto> {
  return post<ExaminerExportDto>(`${REST}/examiner_exports`, body);
}

/** GET REST/examiner_exports/{id}: the export and its progress. */
export function fetchExport(id: string): Promise<ExaminerExportDto> {
  return get<ExaminerExportDto>(`${REST}/examiner_exports/${encodeURIComponent(id)}`);
}
