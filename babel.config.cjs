// Babel is used only by Jest (babel-jest): TypeScript and JSX to CommonJS for Node. Vite builds
// the client with its own toolchain. As a root config it also applies to the ESM-only packages
// jest.config.js lets through.
module.exports = {
  presets: [
    ['@babel/preset-env', { targets: { node: 'current' } }],
    ['@babel/preset-typescript', { allowDeclareFields: true }],
    ['@babel/preset-react', { runtime: 'automatic' }],
  ],
};
