// The build's copy of pdf.js's character maps and standard fonts (scripts/vite/pdfjsAssets.ts):
// which files it writes and where, as the viewer's pdf.js asks for them (/pdfjs/cmaps/…,
// /pdfjs/standard_fonts/…).
import { existsSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { PDFJS_ASSET_DIRS, pdfjsAssetFiles, pdfjsDistDir } from '../../scripts/vite/pdfjsAssets';

describe('pdf.js assets of the build', () => {
  const files = pdfjsAssetFiles(pdfjsDistDir(process.cwd()));
  const names = files.map((f) => f.fileName);

  it('copies every character map and standard font under pdfjs/', () => {
    expect(names).toContain('pdfjs/cmaps/UniJIS-UCS2-H.bcmap');
    expect(names).toContain('pdfjs/standard_fonts/FoxitSerif.pfb');
    expect(names.every((name) => /^pdfjs\/(cmaps|standard_fonts)\/[^/]+$/.test(name))).toBe(true);
    for (const dir of PDFJS_ASSET_DIRS) {
      expect(names.filter((name) => name.startsWith(`pdfjs/${dir}/`)).length).toBeGreaterThan(5);
    }
  });

  it('names files that exist, each once', () => {
    expect(new Set(names).size).toBe(names.length);
    expect(files.every((f) => existsSync(f.file))).toBe(true);
  });
});
