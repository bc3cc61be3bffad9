// Jest runs TypeScript through babel-jest (babel.config.cjs, CommonJS output). Two projects: node (common/ and server/
// tests) and jsdom (client tests). ESM-only packages are transformed too.
const esmPackages = [
  'mime',
  'uuid',
  '@uppy',
  'nanoid',
  'p-retry',
  'is-network-error',
  'preact',
  '@transloadit',
  'eventemitter3',
  'namespace-emitter',
  'lodash-es',
  'mime-match',
  'cookie',
  'wildcard',
  'zip-stream',
  'compress-commons',
  'crc32-stream',
  'is-stream',
];

/** The path aliases of tsconfig.json (`@common/…`, `@server/…`, `@src/…`). */
const aliases = {
  '^@common/(.*)$': '<rootDir>/common/$1',
  '^@server/(.*)$': '<rootDir>/server/$1',
  '^@src/(.*)$': '<rootDir>/src/$1',
};

const common = {
  moduleNameMapper: aliases,
  transform: { '^.+\\.(t|j|mj)sx?$': 'babel-jest' },
  // A file is transformed when the innermost package it belongs to is ESM-only (listed above).
  transformIgnorePatterns: [`/node_modules/(?!(.*/node_modules/)?(${esmPackages.join('|')})/)`],
  moduleFileExtensions: ['ts', 'tsx', 'js', 'mjs', 'cjs', 'json'],
};

export default {
  // antd under jsdom renders slowly on a 2-core machine: a generous limit, no wall-clock asserts.
  testTimeout: 90_000,
  globalSetup: '<rootDir>/__tests__/globalSetup.cjs',
  globalTeardown: '<rootDir>/__tests__/globalTeardown.cjs',
  projects: [
    {
      ...common,
      displayName: 'node',
      testEnvironment: 'node',
      testMatch: ['<rootDir>/__tests__/{common,server}/**/*.test.ts'],
      setupFilesAfterEnv: ['<rootDir>/__tests__/retryOnCi.ts'],
    },
    {
      ...common,
      displayName: 'client',
      testEnvironment: 'jsdom',
      testMatch: ['<rootDir>/__tests__/src/**/*.test.{ts,tsx}'],
      setupFilesAfterEnv: ['<rootDir>/__tests__/retryOnCi.ts', '<rootDir>/__tests__/src/setup.ts'],
      // Jest takes the first pattern that matches: the stand-ins before the path aliases.
      moduleNameMapper: {
        '\\.(css|less)$': '<rootDir>/__tests__/src/styleMock.cjs',
        '^virtual:antd-later-styles$': '<rootDir>/__tests__/src/styleMock.cjs',
        // Pages render eagerly in jsdom (see __tests__/src/eagerPages.ts).
        '^\\./lazyPages$': '<rootDir>/__tests__/src/eagerPages.ts',
        // Parts loaded on demand render at once too (see __tests__/src/eagerLazy.ts).
        '(^|/)app/lazyNamed$': '<rootDir>/__tests__/src/eagerLazy.ts',
        '^\\./lazyNamed$': '<rootDir>/__tests__/src/eagerLazy.ts',
        ...aliases,
      },
    },
  ],
};
