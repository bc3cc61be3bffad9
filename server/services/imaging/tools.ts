/**
 * Which external tools document imaging finds (docs/architecture.md "Document imaging"). The app
 * starts and works without them: the derivations that need a missing tool fail with the reason
 * (what is missing and the Debian command that installs it), the start-up log names each missing
 * tool once, and administrators see the same at GET /api/rest/private/imaging/status.
 */
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { IMAGING_TOOLS, installCommand, missingToolMessage } from '@common/imaging';
import { runTool } from './runner';

/** A tool's state, as the status page shows it. */
export interface ToolStatus {
  command: string;
  label: string;
  purpose: string;
  /** Its path, or null when missing. */
  path: string | null;
  /** The command installing it when missing, else null. */
  install: string | null;
}

/** The probe's answer: every tool, and the recognition languages Tesseract lacks. */
export interface ToolsReport {
  tools: ToolStatus[];
  /** Configured OCR languages Tesseract has no data for (empty when it has all, or is missing). */
  missingLanguages: string[];
  /** The command installing the missing languages, or null. */
  installLanguages: string | null;
}

/**
 * The first executable `command` on PATH.
 * @returns its path, or null
 */
export async function findExecutable(
  command: string,
  searchPath = process.env.PATH ?? '',
): Promise<string | null> {
  for (const dir of searchPath.split(path.delimiter)) {
    if (dir === '') continue;
    const candidate = path.join(dir, command);
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not in this folder.
    }
  }
  return null;
}

/** The Debian package of a Tesseract language's data. */
export function languagePackage(code: string): string {
  return `tesseract-ocr-${code.toLowerCase().replace(/_/g, '-')}`;
}

/**
 * Looks for every tool, and asks Tesseract which of `languages` it has data for.
 * @param searchPath PATH to search (tests pass one without the tools)
 * @returns the report; never throws
 */
export async function probeTools(
  languages: readonly string[],
  searchPath = process.env.PATH ?? '',
): Promise<ToolsReport> {
  const tools = await Promise.all(
    IMAGING_TOOLS.map(async (tool): Promise<ToolStatus> => {
      const found = await findExecutable(tool.command, searchPath);
      return {
        command: tool.command,
        label: tool.label,
        purpose: tool.purpose,
        path: found,
        install: found ? null : installCommand(tool.packages),
      };
    }),
  );
  let missingLanguages: string[] = [];
  const tesseract = tools.find((tool) => tool.command === 'tesseract')?.path;
  if (tesseract) {
    const listed = await runTool(tesseract, ['--list-langs'], { timeoutMs: 10_000 }).catch(
      () => null,
    );
    if (listed) {
      const known = new Set(listed.stdout.split('\n').map((line) => line.trim()));
      missingLanguages = languages.filter((code) => !known.has(code));
    }
  }
  return {
    tools,
    missingLanguages,
    installLanguages:
      missingLanguages.length > 0 ? installCommand(missingLanguages.map(languagePackage)) : null,
  };
}

/** Logs each missing tool and language once (at start-up). */
export function logMissingTools(report: ToolsReport, log: FastifyBaseLogger): void {
  for (const tool of report.tools) {
    if (!tool.path) log.warn(missingToolMessage(tool.command));
  }
  if (report.installLanguages) {
    log.warn(
      `Tesseract has no data for OCR_LANGUAGES ${report.missingLanguages.join(', ')}: ` +
        report.installLanguages,
    );
  }
}
