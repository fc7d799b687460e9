const t0=performance.now();
const a = await import('node-forge');
console.log(performance.now()-t0);
