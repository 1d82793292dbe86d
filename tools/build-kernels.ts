/**
 * Compiles the engine's WebAssembly kernels (engine/ceilingrates/kernels/assembly, AssemblyScript) and writes
 * the module's bytes, base64, into engine/ceilingrates/kernels/kernels-wasm.ts: `npm run build:kernels`. The
 * bytes are committed, so the engine needs no compiler to run; a unit test compiles again and fails when the
 * committed bytes are not what the source compiles to.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import asc from 'assemblyscript/asc';

const ROOT = resolve(import.meta.dirname, '..');
export const KERNELS_SOURCE = 'engine/ceilingrates/kernels/assembly/index.ts';
export const KERNELS_MODULE = resolve(ROOT, 'engine/ceilingrates/kernels/kernels-wasm.ts');

/** The module's bytes, compiled from the source as the engine ships it. */
export async function compileKernels(): Promise<Uint8Array> {
  let wasm: Uint8Array | null = null;
  const { error, stderr } = await asc.main(
    // No runtime and no assertions: the kernels allocate nothing and take their sizes from the caller. The memory
    // is the caller's (imported), sized once for the arrays it holds. SIMD (every browser since 2021, Node 16.4)
    // scans text sixteen bytes at a time.
    [
      KERNELS_SOURCE,
      '--enable',
      'simd',
      '--optimizeLevel',
      '3',
      '--shrinkLevel',
      '0',
      '--runtime',
      'stub',
      '--noAssert',
      '--importMemory',
      '--bindings',
      'none',
      '--outFile',
      'kernels.wasm',
    ],
    {
      writeFile(name: string, contents: Uint8Array | string) {
        if (name.endsWith('kernels.wasm') && typeof contents !== 'string') wasm = contents;
      },
    },
  );
  if (error || !wasm) throw new Error(`asc failed: ${error?.message ?? 'no module written'}\n${stderr.toString()}`);
  return wasm;
}

export function kernelsModuleText(wasm: Uint8Array): string {
  return [
    `// Written by tools/build-kernels.ts from ${KERNELS_SOURCE} (${wasm.length} bytes): \`npm run build:kernels\`, not by hand.`,
    // Laid out as the formatter lays it out, so `npm run format:check` passes on what this writes.
    'export const KERNELS_WASM =',
    `  '${Buffer.from(wasm).toString('base64')}';`,
    '',
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const wasm = await compileKernels();
  writeFileSync(KERNELS_MODULE, kernelsModuleText(wasm));
  console.log(`${KERNELS_MODULE}: ${wasm.length} bytes`);
}
