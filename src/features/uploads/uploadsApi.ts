/** Calls of the upload flow: create a pending upload (presigned PUT), then record it. */
import type {
  CreateUploadRequest,
  CreateUploadResponse,
  FileDto,
  RecordUploadRequest,
} from '../../../common/types';
import { REST, post } from '../../api/client';

/** POST /api/rest/files: creates a pending upload and answers where to PUT the bytes. */
export function createUpload(body: CreateUploadRequest): Promise<CreateUploadResponse> {
  return post<CreateUploadResponse>(`${REST}/files`, body);
}

/** POST /api/rest/files/record: makes an uploaded file visible once its bytes are stored. */
export function recordUpload(body: RecordUploadRequest): Promise<FileDto> {
  return post<FileDto>(`${REST}/files/record`, body);
}
