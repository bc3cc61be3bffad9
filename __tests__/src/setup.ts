// Client test setup: jest-dom matchers and the browser APIs jsdom lacks but antd expects.
import { afterEach, beforeEach, jest } from '@jest/globals';
import '@testing-library/jest-dom/jest-globals';
import { configure } from '@testing-library/react';
import { TextDecoder as NodeTextDecoder, TextEncoder as NodeTextEncoder } from 'node:util';
import { installConsoleErrorCheck } from './consoleErrors';

Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: (query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => undefined,
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    dispatchEvent: () => false,
  }),
});

// Uppy cannot be loaded by Jest's CommonJS runtime: its dependency @transloadit/prettier-bytes
// only has an "import" export condition (and p-queue is ESM-only and not in the transform list).
// Client tests never need the real Uppy: the upload sagas use a substitute Uploader, and
// uppyClient.test.ts replaces these stubs with a scriptable fake.
jest.mock('@uppy/core', () => {
  class UppyStub {
    use() {
      return this;
    }
    on() {
      return this;
    }
    getFile() {
      return undefined;
    }
    getFiles() {
      return [];
    }
    addFile() {
      return 'uppy-stub';
    }
    setFileMeta() {}
    removeFile() {}
    cancelAll() {}
    upload() {
      return Promise.resolve(undefined);
    }
  }
  return { __esModule: true, default: UppyStub, Uppy: UppyStub };
});
jest.mock('@uppy/aws-s3', () => ({ __esModule: true, default: class AwsS3Stub {} }));
jest.mock('@uppy/golden-retriever', () => ({
  __esModule: true,
  default: class GoldenRetrieverStub {},
}));

// jsdom has no ResizeObserver; antd and react-virtuoso only need it to exist.
if (typeof window.ResizeObserver === 'undefined') {
  class ResizeObserverStub {
    observe(): void {}
    unobserve(): void {}
    disconnect(): void {}
  }
  Object.defineProperty(window, 'ResizeObserver', { writable: true, value: ResizeObserverStub });
}

// jsdom has no TextEncoder/TextDecoder; react-router needs them at import time.
if (typeof globalThis.TextEncoder === 'undefined') {
  Object.assign(globalThis, { TextEncoder: NodeTextEncoder, TextDecoder: NodeTextDecoder });
}

// @ant-design/icons' CommonJS build requires '@ant-design/colors/es/generate', an ES module that
// jest.config.js does not transform; its CommonJS twin is identical.
jest.mock('@ant-design/colors/es/generate', () =>
  jest.requireActual('@ant-design/colors/lib/generate'),
);

// jsdom has no MessageChannel; antd's form uses one to schedule a macrotask. This stand-in
// delivers messages with setTimeout and keeps no handle open.
if (typeof globalThis.MessageChannel === 'undefined') {
  type Handler = ((event: { data: unknown }) => void) | null;
  class PortStub {
    onmessage: Handler = null;
    other: PortStub | null = null;
    postMessage(data: unknown): void {
      const target = this.other;
      setTimeout(() => target?.onmessage?.({ data }), 0);
    }
    close(): void {
      this.onmessage = null;
    }
    start(): void {}
  }
  class MessageChannelStub {
    port1 = new PortStub();
    port2 = new PortStub();
    constructor() {
      this.port1.other = this.port2;
      this.port2.other = this.port1;
    }
  }
  Object.defineProperty(globalThis, 'MessageChannel', {
    writable: true,
    configurable: true,
    value: MessageChannelStub,
  });
}

// jsdom's getComputedStyle does not implement pseudo-elements (antd's modal asks for the
// scrollbar's); answer with the element's own style instead of logging "Not implemented".
const elementStyle = window.getComputedStyle.bind(window);
Object.defineProperty(window, 'getComputedStyle', {
  writable: true,
  configurable: true,
  value: (element: Element) => elementStyle(element),
});

// findBy* queries wait up to 5 s: antd's first render under jsdom is slow on small machines.
configure({ asyncUtilTimeout: 5_000 });

// An unexpected console.error fails the test that logged it (a failed API call, a saga worker
// caught by safely(), a React warning); tests allow the ones they provoke (consoleErrors.ts).
const consoleErrorCheck = installConsoleErrorCheck(console.error.bind(console));
beforeEach(consoleErrorCheck.reset);
afterEach(consoleErrorCheck.check);
