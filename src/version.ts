// The version alone, in its own module: `hubctl --version` loads nothing else.
export const VERSION = '0.1.0';
