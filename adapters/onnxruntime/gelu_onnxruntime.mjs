// gelu_onnxruntime.mjs — ONNX Runtime's CPU GELU as a gelucheck subject: a program that speaks
// the subject protocol (gelucheck-subject/1, docs/subjects.md "The protocol") on stdin/stdout,
// run by Node.js over the npm package onnxruntime-node (pinned in adapters/npm/; the peer
// `onnxruntime`, subjects/src/peer_onnxruntime.cpp, starts it).
//
//   node gelu_onnxruntime.mjs --npm NODE_MODULES [--contrib] [--threads N]
//
// Each op is a one-node ONNX model, x (1-D, any length) -> y, run by an InferenceSession on the
// CPU execution provider, which computes it with ONNX Runtime's own kernels (MLAS):
//   default    the opset-20 ONNX op Gelu, attribute approximate = "none" (erf) | "tanh"
//   --contrib  ONNX Runtime's contrib ops com.microsoft.Gelu (erf) and com.microsoft.FastGelu (tanh)
// Where ONNX Runtime has no kernel for an element type, it expands the op into the elementary ops
// of its function body; which kernels ran is read from a profile of one run at start-up and named
// in the description. Nothing of ONNX Runtime's math is reimplemented here: the model bytes are
// written below (the protobuf fields of onnx.proto that a one-node model needs), the rest is the
// library's.
//
// Not provided, and why (named in the description too):
//   bf16      onnxruntime-node's Tensor has no bfloat16 type (its data types: float32, float64,
//             float16, integers, bool, string)
//   backward  GeluGrad and FastGeluGrad are training ops, absent from this inference build
// An op whose session cannot be created or run (no kernel, no function body) is withdrawn with
// ONNX Runtime's message.
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const PROTOCOL = 'gelucheck-subject/1';
const MAX_LINE = 1 << 16;
const MAX_ELEMENTS = 1 << 28;

// Library output must never reach the protocol's stdout: console.* goes to stderr (ONNX Runtime's
// own logger writes to stderr already).
for (const k of ['log', 'info', 'debug']) console[k] = console.error;

function usage(why) {
  process.stderr.write(`gelu_onnxruntime: ${why}\n` +
    'usage: node gelu_onnxruntime.mjs --npm NODE_MODULES [--contrib] [--threads N]\n');
  process.exit(2);
}

const args = process.argv.slice(2);
let npmDir = '';
let contrib = false;
let threads = 1;
for (let i = 0; i < args.length; ++i) {
  if (args[i] === '--npm' && i + 1 < args.length) npmDir = args[++i];
  else if (args[i] === '--contrib') contrib = true;
  else if (args[i] === '--threads' && i + 1 < args.length) {
    threads = Number(args[++i]);
    if (!Number.isInteger(threads) || threads < 1 || threads > 1024) usage(`bad --threads ${args[i]}`);
  } else usage(`unknown argument ${args[i]}`);
}
if (!npmDir) usage('--npm NODE_MODULES is required');

const require = createRequire(path.join(path.resolve(npmDir), 'gelucheck-adapter.js'));
const ort = require('onnxruntime-node');
const packageJson = JSON.parse(
  fs.readFileSync(require.resolve('onnxruntime-node/package.json'), 'utf8'));

// --- The model: protobuf wire format (varints, length-delimited fields) of onnx.proto. ---

function varint(n) {
  const out = [];
  let v = BigInt(n);
  do {
    let b = Number(v & 0x7fn);
    v >>= 7n;
    if (v) b |= 0x80;
    out.push(b);
  } while (v);
  return Buffer.from(out);
}
const intField = (field, v) => Buffer.concat([varint(field << 3), varint(v)]);
function bytesField(field, bytes) {
  const b = typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes;
  return Buffer.concat([varint((field << 3) | 2), varint(b.length), b]);
}
const message = (...parts) => Buffer.concat(parts);

// TensorProto.DataType
const ELEM = { f64: 11, f32: 1, f16: 10 };
// The Tensor type names onnxruntime-node uses, and the typed arrays holding each on the wire.
const TENSOR = {
  f64: { name: 'float64', array: Float64Array },
  f32: { name: 'float32', array: Float32Array },
  f16: { name: 'float16', array: Uint16Array },  // binary16 bit patterns
};

function valueInfo(name, dt) {
  const dim = message(bytesField(2, 'n'));                        // Dimension.dim_param
  const shape = message(bytesField(1, dim));                      // TensorShapeProto.dim
  const tensor = message(intField(1, ELEM[dt]), bytesField(2, shape));  // elem_type, shape
  const type = message(bytesField(1, tensor));                    // TypeProto.tensor_type
  return message(bytesField(1, name), bytesField(2, type));       // ValueInfoProto
}

// The node computing `form` (tanh | erf) in this adapter's mode: [domain, op_type, approximate].
function nodeOf(form) {
  if (contrib) return ['com.microsoft', form === 'tanh' ? 'FastGelu' : 'Gelu', null];
  return ['', 'Gelu', form === 'tanh' ? 'tanh' : 'none'];
}

function model(form, dt) {
  const [domain, opType, approximate] = nodeOf(form);
  const attrs = approximate === null ? [] : [bytesField(5, message(  // NodeProto.attribute
    bytesField(1, 'approximate'), bytesField(4, approximate), intField(20, 3)))];  // STRING
  const node = message(bytesField(1, 'x'), bytesField(2, 'y'), bytesField(3, 'gelu'),
    bytesField(4, opType), ...attrs, bytesField(7, domain));
  const graph = message(bytesField(1, node), bytesField(2, 'gelu'),
    bytesField(11, valueInfo('x', dt)), bytesField(12, valueInfo('y', dt)));
  const opsets = [message(bytesField(1, ''), intField(2, 20))];
  if (contrib) opsets.push(message(bytesField(1, 'com.microsoft'), intField(2, 1)));
  return new Uint8Array(message(intField(1, 9), bytesField(2, 'gelucheck'),  // ir_version 9
    bytesField(7, graph), ...opsets.map((o) => bytesField(8, o))));
}

function sessionOptions(extra = {}) {
  return {
    executionProviders: ['cpu'],
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    logSeverityLevel: 3,  // errors only
    ...extra,
  };
}

// --- Start-up: a session per op, tried on 16 elements with a profile of which kernels ran; the
// session is then kept, its profiler ended, for the requests. ---

const FORMS = ['tanh', 'erf'];
const DTS = ['f64', 'f32', 'f16'];
const sessions = new Map();  // op name -> InferenceSession
const kernels = new Map();   // op name -> the kernels that ran, "Gelu" or "Mul, Erf, ..."
const withdrawn = [];        // "op: why"

function tensorOf(dt, bytes, n) {
  const T = TENSOR[dt];
  const data = new T.array(n);
  Buffer.from(data.buffer).set(bytes.subarray(0, n * T.array.BYTES_PER_ELEMENT));
  return new ort.Tensor(T.name, data, [n]);
}

function sample(dt) {
  const T = TENSOR[dt];
  const data = new T.array(16);
  for (let i = 0; i < 16; ++i) data[i] = dt === 'f16' ? 0x3c00 : 1;  // 1.0
  return new ort.Tensor(T.name, data, [16]);
}

async function probe(form, dt) {
  const op = `${form}.forward.${dt}`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gelucheck-ort-'));
  try {
    const session = await ort.InferenceSession.create(model(form, dt), sessionOptions(
      { enableProfiling: true, profileFilePrefix: path.join(dir, 'profile') }));
    await session.run({ x: sample(dt) });
    await session.endProfiling();
    const ran = new Set();
    for (const f of fs.readdirSync(dir)) {
      for (const e of JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')))
        if (e.cat === 'Node' && e.args && e.args.op_name) ran.add(e.args.op_name);
    }
    sessions.set(op, session);
    kernels.set(op, [...ran].join(', ') || '?');
  } catch (e) {
    withdrawn.push(`${op}: ${String(e.message || e).split('\n')[0]}`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });  // only what this probe wrote
  }
}

for (const form of FORMS) for (const dt of DTS) await probe(form, dt);

// The npm package's integrity hash (the lock's), standing for the build: the package records no
// commit of ONNX Runtime.
function integrity() {
  try {
    const lock = JSON.parse(fs.readFileSync(path.join(npmDir, '.package-lock.json'), 'utf8'));
    const i = lock.packages['node_modules/onnxruntime-node'].integrity || '';
    return i.slice(0, 19) + (i.length > 19 ? '...' : '');
  } catch {
    return 'unknown';
  }
}

// The instruction sets MLAS chooses its kernels by (at run time, from cpuid), as this CPU has them.
function cpuFeatures() {
  try {
    const flags = (fs.readFileSync('/proc/cpuinfo', 'utf8').match(/^flags\s*:(.*)$/m) || ['', ''])[1]
      .trim().split(/\s+/);
    const wanted = ['sse4_1', 'avx', 'avx2', 'fma', 'f16c', 'avx512f', 'avx512bw', 'avx512_bf16',
      'avx_vnni', 'amx_tile'];
    return wanted.filter((f) => flags.includes(f)).join(' ') || 'none of sse4_1..amx';
  } catch {
    return 'unknown';
  }
}

function describe() {
  const ops = contrib ? 'contrib ops com.microsoft.FastGelu (tanh), com.microsoft.Gelu (erf)'
    : 'opset-20 Gelu (approximate tanh | none)';
  const byKernel = new Map();
  for (const [op, k] of kernels) byKernel.set(k, [...(byKernel.get(k) || []), op]);
  const ran = [...byKernel].map(([k, o]) => `${o.join(' ')}: ${k}`).join('; ');
  return `ONNX Runtime ${ort.env.versions.node || packageJson.version} (npm onnxruntime-node ` +
    `${packageJson.version}, ${integrity()}), CPU execution provider, ${ops}; intra-op threads ` +
    `${threads}; MLAS kernels for this CPU (${cpuFeatures()}); kernels that ran: ${ran}` +
    (withdrawn.length ? `; withdrawn: ${withdrawn.join('; ')}` : '') +
    '; not provided: bf16 (onnxruntime-node has no bfloat16 tensor), backward (GeluGrad, ' +
    'FastGeluGrad: training build only)';
}

// --- The protocol. ---

function writeAll(buf) {
  for (let off = 0; off < buf.length;) off += fs.writeSync(1, buf, off, buf.length - off);
}

// Bytes read past the last line or payload; request lines are read through it, payloads
// straight into their own buffer.
let pending = Buffer.alloc(0);
const chunk = Buffer.allocUnsafe(1 << 16);
function readInto(buf, off) {  // bytes read into buf from off; 0 at end of input
  for (;;) {
    try {
      return fs.readSync(0, buf, off, buf.length - off, null);
    } catch (e) {
      if (e.code !== 'EAGAIN') throw e;
    }
  }
}
function fill() {
  const got = readInto(chunk, 0);
  if (got > 0) pending = Buffer.concat([pending, chunk.subarray(0, got)]);
  return got > 0;
}
function readLine() {
  for (;;) {
    const nl = pending.indexOf(10);
    if (nl >= 0) {
      const line = pending.subarray(0, nl).toString('latin1');
      pending = pending.subarray(nl + 1);
      return line;
    }
    if (pending.length > MAX_LINE) fail('request line too long');
    if (!fill()) {
      if (pending.length) fail('end of input inside a request line');
      return null;
    }
  }
}
function readExact(n) {
  if (pending.length >= n) {
    const out = pending.subarray(0, n);
    pending = pending.subarray(n);
    return out;
  }
  const out = Buffer.allocUnsafe(n);
  let have = pending.copy(out);
  pending = Buffer.alloc(0);
  while (have < n) {
    const got = readInto(out, have);
    if (got === 0) fail('end of input inside a request');
    have += got;
  }
  return out;
}
function fail(why) {
  process.stderr.write(`gelu_onnxruntime: ${why}\n`);
  process.exit(3);  // out of step with gelucheck: nothing more to do
}
const oneLine = (s) => String(s).replace(/[\x00-\x1f\x7f]/g, ' ').slice(0, 1000);

const provides = [...sessions.keys()].sort();
writeAll(Buffer.from(JSON.stringify(
  { protocol: PROTOCOL, name: describe(), provides, strided: false }) + '\n', 'ascii'));

const REQUEST = /^(forward|backward) (tanh|erf) (f64|f32|f16|bf16) (0|[1-9][0-9]*)( [1-9][0-9]*)?$/;
const SIZE = { f64: 8, f32: 4, f16: 2, bf16: 2 };
for (;;) {
  const line = readLine();
  if (line === null || line === 'quit') break;
  const m = REQUEST.exec(line);
  if (!m) fail(`not a request: ${oneLine(line)}`);
  const [, direction, form, dt] = m;
  const n = Number(m[4]);
  const stride = m[5] ? Number(m[5]) : 1;
  if (n > MAX_ELEMENTS || stride > MAX_ELEMENTS) fail(`out of range: ${oneLine(line)}`);
  const payload = readExact(n * SIZE[dt] * (direction === 'backward' ? 2 : 1));
  const op = `${form}.${direction}.${dt}`;
  const session = sessions.get(op);
  let answer;
  if (!session) answer = Buffer.from(`error ${op} is not provided\n`);
  else if (stride > 1) answer = Buffer.from('error this subject does not take strides\n');
  else if (n === 0) answer = Buffer.from('ok 0\n');
  else {
    try {
      const { y } = await session.run({ x: tensorOf(dt, payload, n) });
      const d = y.data;
      if (y.type !== TENSOR[dt].name || d.length !== n)
        answer = Buffer.from(`error ${op} returned ${y.type}[${d.length}] for ${n} elements\n`);
      else answer = Buffer.concat([Buffer.from(`ok ${n}\n`),
        Buffer.from(d.buffer, d.byteOffset, d.byteLength)]);
    } catch (e) {
      answer = Buffer.from(`error ${oneLine(e.message || e)}\n`);
    }
  }
  writeAll(answer);
}
