/** Which files the viewer shows, and how: the original where safe, else the PDF rendition. */
import { describe, expect, it } from '@jest/globals';
import { contentTypeFor } from '@common/files';
import { derivationPlan, isViewable, viewerContent } from '@common/imaging';

const of = (extension: string) => viewerContent(extension, contentTypeFor(extension));

describe('viewerContent', () => {
  it.each([
    ['pdf', 'pdf'],
    ['png', 'image'],
    ['jpg', 'image'],
    ['webp', 'image'],
    ['mp4', 'video'],
    ['mp3', 'audio'],
    ['txt', 'text'],
    ['csv', 'text'],
    ['docx', 'rendition'],
    ['xlsx', 'rendition'],
    ['pptx', 'rendition'],
    ['odt', 'rendition'],
    ['rtf', 'rendition'],
    ['tiff', 'rendition'],
    ['html', 'rendition'],
    ['svg', 'rendition'],
    ['zip', null],
    ['exe', null],
    ['mov', null],
  ])('%s → %s', (extension, expected) => {
    expect(of(extension)).toBe(expected);
  });

  it('never shows SVG or HTML from the original, whatever the case', () => {
    expect(viewerContent('SVG', 'image/svg+xml')).toBe('rendition');
    expect(viewerContent('HTM', 'text/html; charset=utf-8')).toBe('rendition');
  });

  it('agrees with the server: every rendition type has a derivation plan', () => {
    for (const extension of ['doc', 'ods', 'odp', 'epub', 'tif', 'svg']) {
      expect(derivationPlan(extension, contentTypeFor(extension))).not.toBeNull();
      expect(isViewable(extension, contentTypeFor(extension))).toBe(true);
    }
    expect(isViewable('bin', 'application/octet-stream')).toBe(false);
  });
});
