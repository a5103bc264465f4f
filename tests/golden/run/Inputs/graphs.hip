// HIP graphs checked against work done directly and against CPU references: a captured
// sequence of copies, memsets, kernels and host nodes; a hand-built diamond whose host nodes
// record the order they ran in; child graphs; node parameters read back and changed, in the
// graph and in an instantiated graph; hipGraphExecUpdate; and the errors of invalid use.
#include <hip/hip_runtime.h>

#include <cstring>
#include <string>
#include <vector>

#include "hip_check.h"

__device__ int table[16];

__global__ void affine(float* y, const float* x, float a, float b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + b;
}
__global__ void add(float* y, const float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] += x[i];
}
__global__ void bump_table(int k) {
  int i = threadIdx.x;
  if (i < 16) table[i] += k * i;
}

static std::string trail;
static void mark(void* letter) { trail += *static_cast<const char*>(letter); }
static void tally(void* count) { ++*static_cast<int*>(count); }

static size_t count_nodes(hipGraph_t g) {
  size_t n = 0;
  return hipGraphGetNodes(g, nullptr, &n) == hipSuccess ? n : 0;
}

// The work of the captured sequence, done by the CPU: x = host input, y = 2x + 1 (kernel), then
// the first 16 floats of y are zeroed by a memset, then y += x, then a host node counts.
static std::vector<float> reference(const std::vector<float>& x) {
  std::vector<float> y(x.size());
  for (size_t i = 0; i < x.size(); ++i) y[i] = 2.0f * x[i] + 1.0f;
  for (size_t i = 0; i < 16; ++i) y[i] = 0.0f;
  for (size_t i = 0; i < x.size(); ++i) y[i] += x[i];
  return y;
}

static void sequence(hipStream_t s, float* dx, float* dy, const std::vector<float>& x, std::vector<float>& y, int* count, int n) {
  (void)hipMemcpyAsync(dx, x.data(), n * sizeof(float), hipMemcpyHostToDevice, s);
  hipLaunchKernelGGL(affine, dim3((n + 127) / 128), dim3(128), 0, s, dy, dx, 2.0f, 1.0f, n);
  (void)hipMemsetAsync(dy, 0, 16 * sizeof(float), s);
  hipLaunchKernelGGL(add, dim3((n + 127) / 128), dim3(128), 0, s, dy, dx, n);
  (void)hipStreamAddCallback(s, [](hipStream_t, hipError_t, void* c) { tally(c); }, count, 0);
  (void)hipMemcpyAsync(y.data(), dy, n * sizeof(float), hipMemcpyDeviceToHost, s);
}

static void captured_sequence(hipStream_t s, int n) {
  std::vector<float> x(n), direct(n), graphed(n);
  for (int i = 0; i < n; ++i) x[i] = 0.25f * i - 7.0f;
  float *dx, *dy;
  EXPECT_OK(hipMalloc(&dx, n * sizeof(float)));
  EXPECT_OK(hipMalloc(&dy, n * sizeof(float)));
  int direct_count = 0, graph_count = 0;
  sequence(s, dx, dy, x, direct, &direct_count, n);
  EXPECT_OK(hipStreamSynchronize(s));
  EXPECT_OK(hipMemset(dy, 0x7f, n * sizeof(float)));

  hipGraph_t g;
  EXPECT_OK(hipStreamBeginCapture(s, hipStreamCaptureModeGlobal));
  sequence(s, dx, dy, x, graphed, &graph_count, n);
  EXPECT_OK(hipStreamEndCapture(s, &g));
  EXPECT(count_nodes(g) == 6 && graph_count == 0);
  std::vector<hipGraphNode_t> nodes(6);
  size_t six = 6;
  EXPECT_OK(hipGraphGetNodes(g, nodes.data(), &six));
  const hipGraphNodeType want[6] = {GRAPH_NODE_TYPE_COPY_1D, hipGraphNodeTypeKernel, hipGraphNodeTypeMemset,
                                    hipGraphNodeTypeKernel, hipGraphNodeTypeHost, GRAPH_NODE_TYPE_COPY_1D};
  bool types = true;
  for (int i = 0; i < 6; ++i) {
    hipGraphNodeType t;
    types = types && hipGraphNodeGetType(nodes[i], &t) == hipSuccess && t == want[i];
  }
  EXPECT(types);
  hipGraphExec_t exec;
  EXPECT_OK(hipGraphInstantiate(&exec, g, nullptr, nullptr, 0));
  EXPECT_OK(hipGraphLaunch(exec, s));
  EXPECT_OK(hipStreamSynchronize(s));
  const std::vector<float> expected = reference(x);
  EXPECT(direct == expected);
  EXPECT(graphed == expected);
  EXPECT(graph_count == 1 && direct_count == 1);
  // Relaunched after the input changed: the captured copy reads the host buffer again.
  for (int i = 0; i < n; ++i) x[i] = 3.0f - 0.5f * i;
  EXPECT_OK(hipGraphLaunch(exec, s));
  EXPECT_OK(hipStreamSynchronize(s));
  EXPECT(graphed == reference(x) && graph_count == 2);
  // The launch of a graph, captured, is a child-graph node.
  hipStream_t other;
  EXPECT_OK(hipStreamCreate(&other));
  hipGraph_t outer;
  EXPECT_OK(hipStreamBeginCapture(other, hipStreamCaptureModeGlobal));
  EXPECT_OK(hipGraphLaunch(exec, other));
  EXPECT_OK(hipStreamEndCapture(other, &outer));
  hipGraphNodeType t;
  hipGraphNode_t only;
  size_t one = 1;
  EXPECT_OK(hipGraphGetNodes(outer, &only, &one));
  EXPECT(one == 1 && hipGraphNodeGetType(only, &t) == hipSuccess && t == hipGraphNodeTypeGraph);
  EXPECT(graph_count == 2);
  EXPECT_OK(hipGraphDestroy(outer));
  EXPECT_OK(hipStreamDestroy(other));
  EXPECT_OK(hipGraphExecDestroy(exec));
  EXPECT_ERROR(hipGraphLaunch(exec, s), hipErrorInvalidValue);
  EXPECT_OK(hipGraphDestroy(g));
  EXPECT_OK(hipFree(dx));
  EXPECT_OK(hipFree(dy));
}

// A diamond of host nodes A -> {B, C} -> D: A runs first, D last, B before C (created first).
static void diamond(hipStream_t s) {
  hipGraph_t g;
  EXPECT_ERROR(hipGraphCreate(&g, 1), hipErrorInvalidValue);
  EXPECT_OK(hipGraphCreate(&g, 0));
  static char letters[] = "ABCD";
  hipHostNodeParams p[4];
  for (int i = 0; i < 4; ++i) p[i] = {mark, &letters[i]};
  hipGraphNode_t a, b, c, d;
  EXPECT_OK(hipGraphAddHostNode(&a, g, nullptr, 0, &p[0]));
  EXPECT_OK(hipGraphAddHostNode(&c, g, &a, 1, &p[2]));  // C is created before B ...
  EXPECT_OK(hipGraphAddHostNode(&b, g, &a, 1, &p[1]));
  hipGraphNode_t bc[2] = {b, c};
  EXPECT_OK(hipGraphAddHostNode(&d, g, bc, 2, &p[3]));
  size_t n = 0;
  EXPECT_OK(hipGraphGetEdges(g, nullptr, nullptr, &n));
  EXPECT(n == 4);
  hipGraphNode_t from[5], to[5];
  n = 5;
  EXPECT_OK(hipGraphGetEdges(g, from, to, &n));
  EXPECT(n == 4 && from[4] == nullptr && to[4] == nullptr);
  hipGraphNode_t roots[2];
  n = 2;
  EXPECT_OK(hipGraphGetRootNodes(g, roots, &n));
  EXPECT(n == 1 && roots[0] == a && roots[1] == nullptr);
  hipGraphNode_t deps[2];
  n = 2;
  EXPECT_OK(hipGraphNodeGetDependencies(d, deps, &n));
  EXPECT(n == 2 && deps[0] == b && deps[1] == c);
  n = 0;
  EXPECT_OK(hipGraphNodeGetDependentNodes(a, nullptr, &n));
  EXPECT(n == 2);
  // ... so C runs before B: of the ready nodes, the one created first.
  hipGraphExec_t exec;
  EXPECT_OK(hipGraphInstantiate(&exec, g, nullptr, nullptr, 0));
  trail.clear();
  EXPECT_OK(hipGraphLaunch(exec, s));
  EXPECT_OK(hipStreamSynchronize(s));
  EXPECT(trail == "ACBD");
  // Edges: no cycles, no duplicates, no self edges, only nodes of the graph.
  EXPECT_ERROR(hipGraphAddDependencies(g, &d, &a, 1), hipErrorInvalidValue);
  EXPECT_ERROR(hipGraphAddDependencies(g, &a, &b, 1), hipErrorInvalidValue);
  EXPECT_ERROR(hipGraphAddDependencies(g, &a, &a, 1), hipErrorInvalidValue);
  hipGraph_t other;
  EXPECT_OK(hipGraphCreate(&other, 0));
  hipGraphNode_t stranger;
  EXPECT_OK(hipGraphAddEmptyNode(&stranger, other, nullptr, 0));
  EXPECT_ERROR(hipGraphAddDependencies(g, &a, &stranger, 1), hipErrorInvalidValue);
  EXPECT_ERROR(hipGraphAddEmptyNode(&stranger, g, &stranger, 1), hipErrorInvalidValue);
  // Rewire: B must now wait for C as well; then drop and re-add it.
  EXPECT_OK(hipGraphAddDependencies(g, &c, &b, 1));
  EXPECT_ERROR(hipGraphRemoveDependencies(g, &d, &a, 1), hipErrorInvalidValue);
  EXPECT_OK(hipGraphRemoveDependencies(g, &c, &b, 1));
  EXPECT_OK(hipGraphAddDependencies(g, &b, &c, 1));  // now A -> B -> C -> D and B -> D
  hipGraphExec_t exec2;
  EXPECT_OK(hipGraphInstantiate(&exec2, g, nullptr, nullptr, 0));
  trail.clear();
  EXPECT_OK(hipGraphLaunch(exec2, s));
  EXPECT(trail == "ABCD");
  // The first instantiation kept the graph as it was.
  trail.clear();
  EXPECT_OK(hipGraphLaunch(exec, s));
  EXPECT(trail == "ACBD");
  // Clones: same shape, nodes found by their originals.
  hipGraph_t clone;
  EXPECT_OK(hipGraphClone(&clone, g));
  EXPECT(count_nodes(clone) == 4);
  hipGraphNode_t c_in_clone;
  EXPECT_OK(hipGraphNodeFindInClone(&c_in_clone, c, clone));
  EXPECT(c_in_clone != c);
  hipHostNodeParams got;
  EXPECT_OK(hipGraphHostNodeGetParams(c_in_clone, &got));
  EXPECT(got.fn == mark && got.userData == &letters[2]);
  EXPECT_ERROR(hipGraphNodeFindInClone(&c_in_clone, c, other), hipErrorInvalidValue);
  // Destroying a node takes its edges.
  EXPECT_OK(hipGraphDestroyNode(c_in_clone));
  EXPECT(count_nodes(clone) == 3);
  n = 0;
  EXPECT_OK(hipGraphGetEdges(clone, nullptr, nullptr, &n));
  EXPECT(n == 2);  // A -> B, B -> D
  EXPECT_ERROR(hipGraphDestroyNode(c_in_clone), hipErrorInvalidValue);
  // Host node parameters.
  hipHostNodeParams swap = {mark, &letters[0]};
  EXPECT_OK(hipGraphHostNodeSetParams(d, &swap));
  EXPECT_OK(hipGraphExecHostNodeSetParams(exec2, d, &swap));
  trail.clear();
  EXPECT_OK(hipGraphLaunch(exec2, s));
  EXPECT(trail == "ABCA");
  hipHostNodeParams none = {nullptr, nullptr};
  EXPECT_ERROR(hipGraphAddHostNode(&stranger, g, nullptr, 0, &none), hipErrorInvalidValue);
  EXPECT_ERROR(hipGraphExecHostNodeSetParams(exec2, stranger, &swap), hipErrorInvalidValue);
  for (hipGraphExec_t e : {exec, exec2}) EXPECT_OK(hipGraphExecDestroy(e));
  for (hipGraph_t x : {g, other, clone}) EXPECT_OK(hipGraphDestroy(x));
  EXPECT_ERROR(hipGraphDestroy(g), hipErrorInvalidValue);
}

// Kernel, copy, memset, symbol-copy, event and child-graph nodes, their parameters, and updates.
static void nodes_and_updates(hipStream_t s, int n) {
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) x[i] = static_cast<float>(i % 13);
  float *dx, *dy;
  EXPECT_OK(hipMalloc(&dx, n * sizeof(float)));
  EXPECT_OK(hipMalloc(&dy, n * sizeof(float)));
  hipGraph_t g;
  EXPECT_OK(hipGraphCreate(&g, 0));
  hipGraphNode_t up, run, down, clear;
  EXPECT_OK(hipGraphAddMemcpyNode1D(&up, g, nullptr, 0, dx, x.data(), n * sizeof(float), hipMemcpyHostToDevice));
  float a = 3.0f, b = -1.0f;
  void* args[] = {&dy, &dx, &a, &b, &n};
  hipKernelNodeParams k = {};
  k.func = reinterpret_cast<void*>(affine);
  k.gridDim = dim3((n + 63) / 64);
  k.blockDim = dim3(64);
  k.kernelParams = args;
  EXPECT_OK(hipGraphAddKernelNode(&run, g, &up, 1, &k));
  a = 100.0f;  // the node copied the arguments when it was made
  hipMemcpy3DParms back = {};
  back.srcPtr = make_hipPitchedPtr(dy, n * sizeof(float), n * sizeof(float), 1);
  back.dstPtr = make_hipPitchedPtr(y.data(), n * sizeof(float), n * sizeof(float), 1);
  back.extent = make_hipExtent(n * sizeof(float), 1, 1);
  back.kind = hipMemcpyDeviceToHost;
  EXPECT_OK(hipGraphAddMemcpyNode(&down, g, &run, 1, &back));
  hipMemsetParams m = {};
  m.dst = dx;
  m.elementSize = 4;
  m.width = n;
  m.height = 1;
  m.value = 0;
  EXPECT_OK(hipGraphAddMemsetNode(&clear, g, &down, 1, &m));
  hipKernelNodeParams read = {};
  EXPECT_OK(hipGraphKernelNodeGetParams(run, &read));
  EXPECT(read.func == reinterpret_cast<void*>(affine) && read.gridDim.x == unsigned((n + 63) / 64) && read.blockDim.x == 64);
  EXPECT(*static_cast<float*>(read.kernelParams[2]) == 3.0f && *static_cast<int*>(read.kernelParams[4]) == n);
  hipGraphExec_t exec;
  EXPECT_OK(hipGraphInstantiateWithFlags(&exec, g, 0));
  EXPECT_ERROR(hipGraphInstantiateWithFlags(&exec, g, 4), hipErrorInvalidValue);
  EXPECT_OK(hipGraphLaunch(exec, s));
  bool ok = true;
  for (int i = 0; i < n; ++i) ok = ok && y[i] == 3.0f * x[i] - 1.0f;
  EXPECT(ok);
  std::vector<float> cleared(n, -1.0f);
  EXPECT_OK(hipMemcpy(cleared.data(), dx, n * sizeof(float), hipMemcpyDeviceToHost));
  EXPECT(cleared[0] == 0.0f && cleared[n - 1] == 0.0f);

  // New kernel arguments in the instantiated graph only, then relaunch.
  float a2 = 0.5f, b2 = 4.0f;
  void* args2[] = {&dy, &dx, &a2, &b2, &n};
  hipKernelNodeParams k2 = k;
  k2.kernelParams = args2;
  EXPECT_OK(hipGraphExecKernelNodeSetParams(exec, run, &k2));
  EXPECT_OK(hipGraphLaunch(exec, s));
  ok = true;
  for (int i = 0; i < n; ++i) ok = ok && y[i] == 0.5f * x[i] + 4.0f;
  EXPECT(ok);
  EXPECT_OK(hipGraphKernelNodeGetParams(run, &read));
  EXPECT(*static_cast<float*>(read.kernelParams[2]) == 3.0f);  // the graph's node is unchanged
  hipKernelNodeParams other_kernel = k2;
  other_kernel.func = reinterpret_cast<void*>(add);
  void* add_args[] = {&dy, &dx, &n};
  other_kernel.kernelParams = add_args;
  EXPECT_ERROR(hipGraphExecKernelNodeSetParams(exec, run, &other_kernel), hipErrorInvalidValue);
  hipKernelNodeParams bogus = k;
  bogus.func = reinterpret_cast<void*>(mark);
  EXPECT_ERROR(hipGraphAddKernelNode(&run, g, nullptr, 0, &bogus), hipErrorInvalidDeviceFunction);
  EXPECT_ERROR(hipGraphKernelNodeGetParams(up, &read), hipErrorInvalidValue);

  // hipGraphExecUpdate: the same shape with other parameters updates; another shape does not.
  hipGraph_t g2;
  EXPECT_OK(hipGraphCreate(&g2, 0));
  hipGraphNode_t up2, run2, down2, clear2;
  EXPECT_OK(hipGraphAddMemcpyNode1D(&up2, g2, nullptr, 0, dx, x.data(), n * sizeof(float), hipMemcpyHostToDevice));
  float a3 = -2.0f, b3 = 0.25f;
  void* args3[] = {&dy, &dx, &a3, &b3, &n};
  hipKernelNodeParams k3 = k;
  k3.kernelParams = args3;
  EXPECT_OK(hipGraphAddKernelNode(&run2, g2, &up2, 1, &k3));
  EXPECT_OK(hipGraphAddMemcpyNode(&down2, g2, &run2, 1, &back));
  EXPECT_OK(hipGraphAddMemsetNode(&clear2, g2, &down2, 1, &m));
  hipGraphNode_t error_node = nullptr;
  hipGraphExecUpdateResult result;
  EXPECT_OK(hipGraphExecUpdate(exec, g2, &error_node, &result));
  EXPECT(result == hipGraphExecUpdateSuccess && error_node == nullptr);
  EXPECT_OK(hipGraphLaunch(exec, s));
  ok = true;
  for (int i = 0; i < n; ++i) ok = ok && y[i] == -2.0f * x[i] + 0.25f;
  EXPECT(ok);
  hipGraphNode_t extra;
  EXPECT_OK(hipGraphAddEmptyNode(&extra, g2, &clear2, 1));
  EXPECT_ERROR(hipGraphExecUpdate(exec, g2, &error_node, &result), hipErrorGraphExecUpdateFailure);
  EXPECT(result == hipGraphExecUpdateErrorTopologyChanged);
  EXPECT_OK(hipGraphDestroyNode(extra));
  EXPECT_OK(hipGraphRemoveDependencies(g2, &down2, &clear2, 1));
  EXPECT_ERROR(hipGraphExecUpdate(exec, g2, &error_node, &result), hipErrorGraphExecUpdateFailure);
  EXPECT(result == hipGraphExecUpdateErrorTopologyChanged && error_node == clear2);
  EXPECT_OK(hipGraphAddDependencies(g2, &down2, &clear2, 1));
  EXPECT_OK(hipGraphDestroyNode(clear2));
  EXPECT_OK(hipGraphAddEmptyNode(&clear2, g2, &down2, 1));
  EXPECT_ERROR(hipGraphExecUpdate(exec, g2, &error_node, &result), hipErrorGraphExecUpdateFailure);
  EXPECT(result == hipGraphExecUpdateErrorNodeTypeChanged && error_node == clear2);
  EXPECT_ERROR(hipGraphExecUpdate(exec, g2, nullptr, &result), hipErrorInvalidValue);

  // Memset and copy nodes: read back, change, change in the instantiated graph.
  hipMemsetParams mread;
  EXPECT_OK(hipGraphMemsetNodeGetParams(clear, &mread));
  EXPECT(mread.dst == dx && mread.elementSize == 4 && mread.width == size_t(n) && mread.height == 1);
  m.elementSize = 3;
  EXPECT_ERROR(hipGraphMemsetNodeSetParams(clear, &m), hipErrorInvalidValue);
  EXPECT_ERROR(hipGraphAddMemsetNode(&extra, g, nullptr, 0, &m), hipErrorInvalidValue);
  m.elementSize = 2;
  m.value = 0x3c00;  // 1.0 as a half, twice per float: 0x3c003c00
  m.width = 2 * n;
  EXPECT_OK(hipGraphExecMemsetNodeSetParams(exec, clear, &m));
  EXPECT_OK(hipGraphLaunch(exec, s));
  EXPECT_OK(hipMemcpy(cleared.data(), dx, n * sizeof(float), hipMemcpyDeviceToHost));
  uint32_t bits;
  std::memcpy(&bits, &cleared[n / 2], 4);
  EXPECT(bits == 0x3c003c00u);
  hipMemcpy3DParms cread;
  EXPECT_OK(hipGraphMemcpyNodeGetParams(up, &cread));  // a 1D node, as 3D parameters
  EXPECT(cread.srcPtr.ptr == x.data() && cread.dstPtr.ptr == dx && cread.extent.width == n * sizeof(float) &&
         cread.extent.height == 1 && cread.extent.depth == 1);
  EXPECT_OK(hipGraphMemcpyNodeGetParams(down, &cread));
  EXPECT(cread.srcPtr.ptr == dy && cread.dstPtr.ptr == y.data() && cread.kind == hipMemcpyDeviceToHost);
  std::vector<float> half(n, 0.0f);
  EXPECT_OK(hipGraphExecMemcpyNodeSetParams1D(exec, up, dx, x.data(), n / 2 * sizeof(float), hipMemcpyHostToDevice));
  hipMemcpy3DParms back_half = back;
  back_half.dstPtr.ptr = half.data();
  EXPECT_OK(hipGraphExecMemcpyNodeSetParams(exec, down, &back_half));
  EXPECT_OK(hipGraphLaunch(exec, s));
  EXPECT(half[1] == -2.0f * x[1] + 0.25f);
  EXPECT_OK(hipGraphMemcpyNodeSetParams1D(up, dx, x.data(), sizeof(float), hipMemcpyHostToDevice));
  EXPECT_OK(hipGraphMemcpyNodeSetParams(down, &back_half));
  hipMemcpy3DParms broken = back;
  broken.extent.width = 2 * n * sizeof(float);  // wider than the pitch
  EXPECT_ERROR(hipGraphMemcpyNodeSetParams(down, &broken), hipErrorInvalidPitchValue);
  EXPECT_ERROR(hipGraphAddMemcpyNode1D(&extra, g, nullptr, 0, dx, nullptr, 4, hipMemcpyHostToDevice), hipErrorInvalidValue);
  EXPECT_ERROR(hipGraphAddMemcpyNode1D(&extra, g, nullptr, 0, dx, dy, 4, static_cast<hipMemcpyKind>(9)),
               hipErrorInvalidMemcpyDirection);

  // Symbol copies.
  int host_table[16], out_table[16];
  for (int i = 0; i < 16; ++i) host_table[i] = 10 * i;
  hipGraph_t gs;
  EXPECT_OK(hipGraphCreate(&gs, 0));
  hipGraphNode_t to_sym, bump, from_sym;
  EXPECT_OK(hipGraphAddMemcpyNodeToSymbol(&to_sym, gs, nullptr, 0, HIP_SYMBOL(table), host_table, sizeof host_table, 0,
                                          hipMemcpyHostToDevice));
  int kk = 3;
  void* bump_args[] = {&kk};
  hipKernelNodeParams kb = {};
  kb.func = reinterpret_cast<void*>(bump_table);
  kb.gridDim = dim3(1);
  kb.blockDim = dim3(16);
  kb.kernelParams = bump_args;
  EXPECT_OK(hipGraphAddKernelNode(&bump, gs, &to_sym, 1, &kb));
  EXPECT_OK(hipGraphAddMemcpyNodeFromSymbol(&from_sym, gs, &bump, 1, out_table, HIP_SYMBOL(table), 8 * sizeof(int),
                                            8 * sizeof(int), hipMemcpyDeviceToHost));
  hipGraphNodeType t;
  EXPECT(hipGraphNodeGetType(to_sym, &t) == hipSuccess && t == hipGraphNodeTypeMemcpyToSymbol);
  EXPECT(hipGraphNodeGetType(from_sym, &t) == hipSuccess && t == hipGraphNodeTypeMemcpyFromSymbol);
  EXPECT_ERROR(hipGraphAddMemcpyNodeToSymbol(&extra, gs, nullptr, 0, HIP_SYMBOL(table), host_table, 20 * sizeof(int), 0,
                                             hipMemcpyHostToDevice),
               hipErrorInvalidValue);
  EXPECT_ERROR(hipGraphAddMemcpyNodeToSymbol(&extra, gs, nullptr, 0, host_table, host_table, 4, 0, hipMemcpyHostToDevice),
               hipErrorInvalidSymbol);
  hipGraphExec_t es;
  EXPECT_OK(hipGraphInstantiate(&es, gs, nullptr, nullptr, 0));
  EXPECT_OK(hipGraphLaunch(es, s));
  ok = true;
  for (int i = 0; i < 8; ++i) ok = ok && out_table[i] == 10 * (i + 8) + 3 * (i + 8);  // the second half
  EXPECT(ok);
  EXPECT_OK(hipGraphExecMemcpyNodeSetParamsFromSymbol(es, from_sym, out_table, HIP_SYMBOL(table),
                                                      4 * sizeof(int), 0, hipMemcpyDeviceToHost));
  EXPECT_OK(hipGraphExecMemcpyNodeSetParamsToSymbol(es, to_sym, HIP_SYMBOL(table), host_table, 4 * sizeof(int), 0,
                                                    hipMemcpyHostToDevice));
  EXPECT_OK(hipGraphLaunch(es, s));
  // Entries 0..3 were reset to 10 i, then bumped by 3 i; entries 4..15 were bumped once more.
  EXPECT(out_table[0] == 0 && out_table[1] == 13 && out_table[3] == 39);
  EXPECT_OK(hipGraphMemcpyNodeSetParamsToSymbol(to_sym, HIP_SYMBOL(table), host_table, 4, 4, hipMemcpyHostToDevice));
  EXPECT_OK(hipGraphMemcpyNodeSetParamsFromSymbol(from_sym, out_table, HIP_SYMBOL(table), 4, 4, hipMemcpyDeviceToHost));
  EXPECT_ERROR(hipGraphMemcpyNodeSetParamsFromSymbol(to_sym, out_table, HIP_SYMBOL(table), 4, 4, hipMemcpyDeviceToHost),
               hipErrorInvalidValue);

  // Child graphs: a child runs where its node stands; the node keeps its own copy of the child.
  hipGraph_t parent, child;
  EXPECT_OK(hipGraphCreate(&parent, 0));
  EXPECT_OK(hipGraphCreate(&child, 0));
  static char letters[] = "pcq";
  hipHostNodeParams hp = {mark, &letters[0]}, hc = {mark, &letters[1]}, hq = {mark, &letters[2]};
  hipGraphNode_t first, inner, sub, last;
  EXPECT_OK(hipGraphAddHostNode(&inner, child, nullptr, 0, &hc));
  EXPECT_OK(hipGraphAddHostNode(&first, parent, nullptr, 0, &hp));
  EXPECT_OK(hipGraphAddChildGraphNode(&sub, parent, &first, 1, child));
  EXPECT_OK(hipGraphAddHostNode(&last, parent, &sub, 1, &hq));
  EXPECT_ERROR(hipGraphAddChildGraphNode(&extra, parent, nullptr, 0, parent), hipErrorInvalidValue);
  hipGraph_t embedded;
  EXPECT_OK(hipGraphChildGraphNodeGetGraph(sub, &embedded));
  EXPECT(embedded != child && count_nodes(embedded) == 1);
  EXPECT(hipGraphNodeGetType(sub, &t) == hipSuccess && t == hipGraphNodeTypeGraph);
  EXPECT_ERROR(hipGraphDestroy(embedded), hipErrorInvalidValue);  // it belongs to its node
  hipGraphExec_t ep;
  EXPECT_OK(hipGraphInstantiate(&ep, parent, nullptr, nullptr, 0));
  trail.clear();
  EXPECT_OK(hipGraphLaunch(ep, s));
  EXPECT(trail == "pcq");
  hipGraph_t child2;
  EXPECT_OK(hipGraphCreate(&child2, 0));
  hipHostNodeParams hc2 = {mark, &letters[2]};
  EXPECT_OK(hipGraphAddHostNode(&inner, child2, nullptr, 0, &hc2));
  EXPECT_OK(hipGraphExecChildGraphNodeSetParams(ep, sub, child2));
  trail.clear();
  EXPECT_OK(hipGraphLaunch(ep, s));
  EXPECT(trail == "pqq");
  EXPECT_OK(hipGraphAddEmptyNode(&extra, child2, nullptr, 0));
  EXPECT_ERROR(hipGraphExecChildGraphNodeSetParams(ep, sub, child2), hipErrorInvalidValue);

  // Event record and wait nodes.
  hipEvent_t e1, e2;
  EXPECT_OK(hipEventCreate(&e1));
  EXPECT_OK(hipEventCreate(&e2));
  hipGraph_t ge;
  EXPECT_OK(hipGraphCreate(&ge, 0));
  hipGraphNode_t rec, wait;
  EXPECT_OK(hipGraphAddEventRecordNode(&rec, ge, nullptr, 0, e1));
  EXPECT_OK(hipGraphAddEventWaitNode(&wait, ge, &rec, 1, e1));
  hipEvent_t got;
  EXPECT_OK(hipGraphEventRecordNodeGetEvent(rec, &got));
  EXPECT(got == e1);
  EXPECT_OK(hipGraphEventWaitNodeSetEvent(wait, e2));
  EXPECT_OK(hipGraphEventWaitNodeGetEvent(wait, &got));
  EXPECT(got == e2);
  EXPECT_ERROR(hipGraphEventRecordNodeGetEvent(wait, &got), hipErrorInvalidValue);
  EXPECT_OK(hipGraphEventRecordNodeSetEvent(rec, e1));
  hipGraphExec_t ee;
  EXPECT_OK(hipGraphInstantiate(&ee, ge, nullptr, nullptr, 0));
  EXPECT_OK(hipGraphExecEventRecordNodeSetEvent(ee, rec, e2));
  EXPECT_OK(hipGraphExecEventWaitNodeSetEvent(ee, wait, e1));
  EXPECT_OK(hipGraphLaunch(ee, s));
  EXPECT_OK(hipEventSynchronize(e2));
  float ms = -1;
  EXPECT_ERROR(hipEventElapsedTime(&ms, e1, e2), hipErrorInvalidHandle);  // e1 was never recorded
  EXPECT_ERROR(hipGraphAddEventRecordNode(&extra, ge, nullptr, 0, nullptr), hipErrorInvalidValue);

  for (hipGraphExec_t e : {exec, es, ep, ee}) EXPECT_OK(hipGraphExecDestroy(e));
  for (hipGraph_t x : {g, g2, gs, parent, child, child2, ge}) EXPECT_OK(hipGraphDestroy(x));
  for (hipEvent_t e : {e1, e2}) EXPECT_OK(hipEventDestroy(e));
  EXPECT_OK(hipFree(dx));
  EXPECT_OK(hipFree(dy));
}

int main() {
  hipStream_t s;
  EXPECT_OK(hipStreamCreate(&s));
  captured_sequence(s, 1000);
  diamond(s);
  nodes_and_updates(s, 200);
  EXPECT_OK(hipStreamDestroy(s));
  return finish("graphs");
}
