// Preloaded into the soak's server (node --expose-gc --import): SIGUSR2 runs a full garbage
// collection, so the heap the soak reads next is what is still alive, not what awaits GC.
process.on('SIGUSR2', () => globalThis.gc?.());
