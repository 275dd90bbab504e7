// c2pa-ts declares its entry points in package.json `exports` only, which this project's
// `moduleResolution: node` does not read: these name the declarations each entry point ships.
// esbuild (the functions' bundles) and jest (moduleNameMapper) resolve the code itself.
declare module '@trustnxt/c2pa-ts/asset' {
  export * from '@trustnxt/c2pa-ts/dist/asset/index';
}
declare module '@trustnxt/c2pa-ts/cose' {
  export * from '@trustnxt/c2pa-ts/dist/cose/index';
}
declare module '@trustnxt/c2pa-ts/jumbf' {
  export * from '@trustnxt/c2pa-ts/dist/jumbf/index';
}
declare module '@trustnxt/c2pa-ts/manifest' {
  export * from '@trustnxt/c2pa-ts/dist/manifest/index';
}
