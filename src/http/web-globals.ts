// Hides node's lazy `Headers` global while undici's index loads (./undici.ts says why). Evaluating
// this module hides it; restoreWebGlobals() puts the very property descriptor back.
const saved = Object.getOwnPropertyDescriptor(globalThis, 'Headers');
if (saved?.configurable) {
  Object.defineProperty(globalThis, 'Headers', {
    value: undefined,
    writable: true,
    configurable: true,
    enumerable: false,
  });
}

export function restoreWebGlobals(): void {
  if (saved?.configurable) Object.defineProperty(globalThis, 'Headers', saved);
}
