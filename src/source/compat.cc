#include "source/compat.h"

#include <array>
#include <string>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>

namespace gpuport::source {
namespace {

// HIP 5.2's NVIDIA platform maps __shfl* onto the *_sync intrinsics but not the votes, and
// CUDA removed the mask-free __ballot/__any/__all for sm_70 and newer. (The text is the one
// gpuport has always written: outputs of earlier versions are recognised.)
constexpr std::string_view kVotes =
    "#if defined(__HIP_PLATFORM_NVIDIA__) && !defined(GPUPORT_NVIDIA_WARP_VOTES)\n"
    "#define GPUPORT_NVIDIA_WARP_VOTES /* added by gpuport: HIP 5.2 lacks these on NVIDIA */\n"
    "#define __ballot(predicate) __ballot_sync(0xffffffffu, (predicate))\n"
    "#define __any(predicate) __any_sync(0xffffffffu, (predicate))\n"
    "#define __all(predicate) __all_sync(0xffffffffu, (predicate))\n"
    "#endif\n";
constexpr std::array<std::string_view, 3> kVoteTriggers = {"__ballot", "__any", "__all"};

// __activemask arrived on AMD with ROCm 6.2 (hipamd amd_warp_functions.h), declared only where
// HIP_ENABLE_WARP_SYNC_BUILTINS is defined (so through 6.4); otherwise the active lanes are the
// ones that vote: __ballot(1), a 64-bit mask on wave64 as HIP 6.2's is.
constexpr std::string_view kActiveMask =
    "#if defined(__HIP_PLATFORM_AMD__) && (HIP_VERSION < 60200000 || !defined(HIP_ENABLE_WARP_SYNC_BUILTINS)) && \\\n"
    "    !defined(GPUPORT_AMD_ACTIVEMASK)\n"
    "#define GPUPORT_AMD_ACTIVEMASK /* added by gpuport: HIP before 6.2 lacks __activemask on AMD; 6.2 to 6.4 only with HIP_ENABLE_WARP_SYNC_BUILTINS */\n"
    "__device__ static inline unsigned long long gpuport_activemask() { return __ballot(1); }\n"
    "#define __activemask gpuport_activemask\n"
    "#endif\n";
constexpr std::array<std::string_view, 1> kActiveMaskTriggers = {"__activemask"};

// hipLaunchHostFunc reached HIP's NVIDIA platform in ROCm 5.4 (hipother, October 2022). The
// shim has a name of its own and a macro, so that it cannot clash with a HIP that has it.
constexpr std::string_view kHostFunc =
    "#if defined(__HIP_PLATFORM_NVIDIA__) && HIP_VERSION < 50400000 && !defined(GPUPORT_NVIDIA_HOST_FUNC)\n"
    "#define GPUPORT_NVIDIA_HOST_FUNC /* added by gpuport: HIP before 5.4 lacks hipLaunchHostFunc on NVIDIA */\n"
    "static inline hipError_t gpuport_hipLaunchHostFunc(hipStream_t stream, hipHostFn_t fn, void* data) {\n"
    "  return hipCUDAErrorTohipError(cudaLaunchHostFunc(stream, fn, data));\n"
    "}\n"
    "#define hipLaunchHostFunc gpuport_hipLaunchHostFunc\n"
    "#endif\n";
constexpr std::array<std::string_view, 1> kHostFuncTriggers = {"hipLaunchHostFunc"};

// On AMD, HIP 5.2 declares hipLaunchHostFunc but Debian 12's libamdhip64.so.5 (5.2.3) does not
// export it (nm -D), so a program that calls it does not link; the shim runs the function from
// a stream callback (hipStreamAddCallback, exported since HIP 4.2), as ROCm 5.4's runtime does.
constexpr std::string_view kHostFuncAmd =
    "#if defined(__HIP_PLATFORM_AMD__) && HIP_VERSION < 50400000 && !defined(GPUPORT_AMD_HOST_FUNC)\n"
    "#define GPUPORT_AMD_HOST_FUNC /* added by gpuport: HIP 5.2's runtime does not export hipLaunchHostFunc */\n"
    "struct gpuport_host_fn { hipHostFn_t fn; void* data; };\n"
    "static void gpuport_host_fn_call(hipStream_t, hipError_t, void* p) {\n"
    "  gpuport_host_fn* f = static_cast<gpuport_host_fn*>(p);\n"
    "  f->fn(f->data);\n"
    "  delete f;\n"
    "}\n"
    "static inline hipError_t gpuport_hipLaunchHostFunc(hipStream_t stream, hipHostFn_t fn, void* data) {\n"
    "  gpuport_host_fn* f = new gpuport_host_fn{fn, data};\n"
    "  const hipError_t e = hipStreamAddCallback(stream, gpuport_host_fn_call, f, 0);\n"
    "  if (e != hipSuccess) delete f;\n"
    "  return e;\n"
    "}\n"
    "#define hipLaunchHostFunc gpuport_hipLaunchHostFunc\n"
    "#endif\n";

// HIP 5.2's atomicInc/atomicDec (amd_hip_atomic.h) call llvm.amdgcn.atomic.inc/dec by asm label,
// intrinsics that LLVM 17 and later no longer have: with Debian 12's HIP and clang-19 a program
// using them does not link for gfx1100. HIP 5.7 calls clang's builtins instead, as this does.
constexpr std::string_view kAtomicIncDec =
    "#if defined(__HIP_PLATFORM_AMD__) && HIP_VERSION < 50700000 && !defined(GPUPORT_AMD_ATOMIC_INC_DEC)\n"
    "#define GPUPORT_AMD_ATOMIC_INC_DEC /* added by gpuport: HIP 5.2's atomicInc/atomicDec need LLVM intrinsics clang 17+ lacks */\n"
    "__device__ static inline unsigned int gpuport_atomicInc(unsigned int* address, unsigned int val) {\n"
    "  return __builtin_amdgcn_atomic_inc32(address, val, __ATOMIC_RELAXED, \"agent\");\n"
    "}\n"
    "__device__ static inline unsigned int gpuport_atomicDec(unsigned int* address, unsigned int val) {\n"
    "  return __builtin_amdgcn_atomic_dec32(address, val, __ATOMIC_RELAXED, \"agent\");\n"
    "}\n"
    "#define atomicInc gpuport_atomicInc\n"
    "#define atomicDec gpuport_atomicDec\n"
    "#endif\n";
constexpr std::array<std::string_view, 2> kAtomicIncDecTriggers = {"atomicInc", "atomicDec"};

// HIP 5.2 has atomicMin/atomicMax for int, unsigned, unsigned long long, float and double, not
// for long long (5.7 and 6.x do). The shim's template takes only long long and loses to a
// function HIP declares with the same parameters, so it cannot clash with a HIP that has one.
constexpr std::string_view kAtomicMinMaxLongLong =
    "#if defined(__HIP_PLATFORM_AMD__) && HIP_VERSION < 60000000 && !defined(GPUPORT_AMD_ATOMIC_MINMAX_LL)\n"
    "#define GPUPORT_AMD_ATOMIC_MINMAX_LL /* added by gpuport: HIP 5.2 has no atomicMin/atomicMax for long long */\n"
    "template <typename T, typename = typename std::enable_if<std::is_same<T, long long>::value>::type>\n"
    "__device__ static inline T atomicMin(T* address, T val) {\n"
    "  unsigned long long* a = reinterpret_cast<unsigned long long*>(address);\n"
    "  unsigned long long old = *a, seen;\n"
    "  do {\n"
    "    seen = old;\n"
    "    if (static_cast<long long>(seen) <= val) break;\n"
    "    old = atomicCAS(a, seen, static_cast<unsigned long long>(val));\n"
    "  } while (old != seen);\n"
    "  return static_cast<long long>(old);\n"
    "}\n"
    "template <typename T, typename = typename std::enable_if<std::is_same<T, long long>::value>::type>\n"
    "__device__ static inline T atomicMax(T* address, T val) {\n"
    "  unsigned long long* a = reinterpret_cast<unsigned long long*>(address);\n"
    "  unsigned long long old = *a, seen;\n"
    "  do {\n"
    "    seen = old;\n"
    "    if (static_cast<long long>(seen) >= val) break;\n"
    "    old = atomicCAS(a, seen, static_cast<unsigned long long>(val));\n"
    "  } while (old != seen);\n"
    "  return static_cast<long long>(old);\n"
    "}\n"
    "#endif\n";
constexpr std::array<std::string_view, 2> kAtomicMinMaxTriggers = {"atomicMin", "atomicMax"};

// CUDA's cache-hinted stores (__stcg, __stcs, __stwb, __stwt) have no HIP form: on AMD a plain
// store (the hint is a cache policy, not a meaning); on NVIDIA CUDA's own. Two template
// parameters, so that a value converts to the pointee as CUDA's overloads convert it.
constexpr std::string_view kStoreHints =
    "#if !defined(GPUPORT_STORE_HINTS)\n"
    "#define GPUPORT_STORE_HINTS /* added by gpuport: HIP has no cache-hinted stores */\n"
    "#if defined(__HIP_PLATFORM_AMD__)\n"
    "template <typename T, typename V> __device__ static inline void gpuport_stcg(T* p, V v) { *p = v; }\n"
    "template <typename T, typename V> __device__ static inline void gpuport_stcs(T* p, V v) { *p = v; }\n"
    "template <typename T, typename V> __device__ static inline void gpuport_stwb(T* p, V v) { *p = v; }\n"
    "template <typename T, typename V> __device__ static inline void gpuport_stwt(T* p, V v) { *p = v; }\n"
    "#else\n"
    "template <typename T, typename V> __device__ static inline void gpuport_stcg(T* p, V v) { __stcg(p, v); }\n"
    "template <typename T, typename V> __device__ static inline void gpuport_stcs(T* p, V v) { __stcs(p, v); }\n"
    "template <typename T, typename V> __device__ static inline void gpuport_stwb(T* p, V v) { __stwb(p, v); }\n"
    "template <typename T, typename V> __device__ static inline void gpuport_stwt(T* p, V v) { __stwt(p, v); }\n"
    "#endif\n"
    "#endif\n";
constexpr std::array<std::string_view, 4> kStoreHintsTriggers = {"gpuport_stcg", "gpuport_stcs", "gpuport_stwb",
                                                                  "gpuport_stwt"};

// NVTX (profiler annotations: ranges, marks, names) for a file that includes NVTX's headers.
// They change nothing a program computes. On AMD the ranges and marks go to roctx where
// roctracer's header is installed and do nothing otherwise; the names and domains do nothing
// (roctx has none). On NVIDIA, NVTX's own headers. The types and constants are NVTX 3's.
constexpr std::string_view kNvtx =
    "#if !defined(GPUPORT_NVTX)\n"
    "#define GPUPORT_NVTX /* added by gpuport: NVTX's annotations, roctx's where installed (they change no result) */\n"
    "#if defined(__HIP_PLATFORM_NVIDIA__)\n"
    "#include <nvtx3/nvToolsExt.h>\n"
    "#include <nvtx3/nvToolsExtCudaRt.h>\n"
    "#else\n"
    "#include <stdint.h>\n"
    "#include <wchar.h>\n"
    "#if defined(__has_include)\n"
    "#if __has_include(<roctracer/roctx.h>)\n"
    "#include <roctracer/roctx.h>\n"
    "#define GPUPORT_NVTX_ROCTX 1\n"
    "#endif\n"
    "#endif\n"
    "typedef uint64_t nvtxRangeId_t;\n"
    "typedef struct gpuport_nvtx_domain* nvtxDomainHandle_t;\n"
    "typedef struct gpuport_nvtx_string* nvtxStringHandle_t;\n"
    "typedef union nvtxMessageValue_t { const char* ascii; const wchar_t* unicode; nvtxStringHandle_t registered; } nvtxMessageValue_t;\n"
    "typedef struct nvtxEventAttributes_v2 {\n"
    "  uint16_t version; uint16_t size; uint32_t category; int32_t colorType; uint32_t color; int32_t payloadType;\n"
    "  int32_t reserved0;\n"
    "  union payload_t { uint64_t ullValue; int64_t llValue; double dValue; uint32_t uiValue; int32_t iValue; float fValue; } payload;\n"
    "  int32_t messageType; nvtxMessageValue_t message;\n"
    "} nvtxEventAttributes_t;\n"
    "#define NVTX_VERSION 3\n"
    "#define NVTX_EVENT_ATTRIB_STRUCT_SIZE ((uint16_t)(sizeof(nvtxEventAttributes_t)))\n"
    "enum { NVTX_COLOR_UNKNOWN = 0, NVTX_COLOR_ARGB = 1 };\n"
    "enum { NVTX_MESSAGE_UNKNOWN = 0, NVTX_MESSAGE_TYPE_ASCII = 1, NVTX_MESSAGE_TYPE_UNICODE = 2, NVTX_MESSAGE_TYPE_REGISTERED = 3 };\n"
    "enum { NVTX_PAYLOAD_UNKNOWN = 0, NVTX_PAYLOAD_TYPE_UNSIGNED_INT64 = 1, NVTX_PAYLOAD_TYPE_INT64 = 2, NVTX_PAYLOAD_TYPE_DOUBLE = 3,\n"
    "       NVTX_PAYLOAD_TYPE_UNSIGNED_INT32 = 4, NVTX_PAYLOAD_TYPE_INT32 = 5, NVTX_PAYLOAD_TYPE_FLOAT = 6 };\n"
    "static inline const char* gpuport_nvtx_ascii(const nvtxEventAttributes_t* a) {\n"
    "  return a && a->messageType == NVTX_MESSAGE_TYPE_ASCII && a->message.ascii ? a->message.ascii : \"\";\n"
    "}\n"
    "#if defined(GPUPORT_NVTX_ROCTX)\n"
    "static inline int nvtxRangePushA(const char* message) { return roctxRangePushA(message); }\n"
    "static inline int nvtxRangePop(void) { return roctxRangePop(); }\n"
    "static inline nvtxRangeId_t nvtxRangeStartA(const char* message) { return roctxRangeStartA(message); }\n"
    "static inline void nvtxRangeEnd(nvtxRangeId_t id) { roctxRangeStop(id); }\n"
    "static inline void nvtxMarkA(const char* message) { roctxMarkA(message); }\n"
    "#else\n"
    "static inline int nvtxRangePushA(const char* message) { (void)message; return 0; }\n"
    "static inline int nvtxRangePop(void) { return 0; }\n"
    "static inline nvtxRangeId_t nvtxRangeStartA(const char* message) { (void)message; return 0; }\n"
    "static inline void nvtxRangeEnd(nvtxRangeId_t id) { (void)id; }\n"
    "static inline void nvtxMarkA(const char* message) { (void)message; }\n"
    "#endif\n"
    "static inline int nvtxRangePushW(const wchar_t* message) { (void)message; return nvtxRangePushA(\"\"); }\n"
    "static inline int nvtxRangePushEx(const nvtxEventAttributes_t* a) { return nvtxRangePushA(gpuport_nvtx_ascii(a)); }\n"
    "static inline nvtxRangeId_t nvtxRangeStartW(const wchar_t* message) { (void)message; return nvtxRangeStartA(\"\"); }\n"
    "static inline nvtxRangeId_t nvtxRangeStartEx(const nvtxEventAttributes_t* a) { return nvtxRangeStartA(gpuport_nvtx_ascii(a)); }\n"
    "static inline void nvtxMarkW(const wchar_t* message) { (void)message; }\n"
    "static inline void nvtxMarkEx(const nvtxEventAttributes_t* a) { nvtxMarkA(gpuport_nvtx_ascii(a)); }\n"
    "static inline void nvtxInitialize(const void* reserved) { (void)reserved; }\n"
    "static inline nvtxDomainHandle_t nvtxDomainCreateA(const char* name) { (void)name; return (nvtxDomainHandle_t)0; }\n"
    "static inline nvtxDomainHandle_t nvtxDomainCreateW(const wchar_t* name) { (void)name; return (nvtxDomainHandle_t)0; }\n"
    "static inline void nvtxDomainDestroy(nvtxDomainHandle_t d) { (void)d; }\n"
    "static inline void nvtxDomainMarkEx(nvtxDomainHandle_t d, const nvtxEventAttributes_t* a) { (void)d; nvtxMarkEx(a); }\n"
    "static inline nvtxRangeId_t nvtxDomainRangeStartEx(nvtxDomainHandle_t d, const nvtxEventAttributes_t* a) { (void)d; return nvtxRangeStartEx(a); }\n"
    "static inline void nvtxDomainRangeEnd(nvtxDomainHandle_t d, nvtxRangeId_t id) { (void)d; nvtxRangeEnd(id); }\n"
    "static inline int nvtxDomainRangePushEx(nvtxDomainHandle_t d, const nvtxEventAttributes_t* a) { (void)d; return nvtxRangePushEx(a); }\n"
    "static inline int nvtxDomainRangePop(nvtxDomainHandle_t d) { (void)d; return nvtxRangePop(); }\n"
    "static inline nvtxStringHandle_t nvtxDomainRegisterStringA(nvtxDomainHandle_t d, const char* s) { (void)d; (void)s; return (nvtxStringHandle_t)0; }\n"
    "static inline nvtxStringHandle_t nvtxDomainRegisterStringW(nvtxDomainHandle_t d, const wchar_t* s) { (void)d; (void)s; return (nvtxStringHandle_t)0; }\n"
    "static inline void nvtxDomainNameCategoryA(nvtxDomainHandle_t d, uint32_t c, const char* n) { (void)d; (void)c; (void)n; }\n"
    "static inline void nvtxNameCategoryA(uint32_t c, const char* n) { (void)c; (void)n; }\n"
    "static inline void nvtxNameCategoryW(uint32_t c, const wchar_t* n) { (void)c; (void)n; }\n"
    "static inline void nvtxNameOsThreadA(uint32_t t, const char* n) { (void)t; (void)n; }\n"
    "static inline void nvtxNameOsThreadW(uint32_t t, const wchar_t* n) { (void)t; (void)n; }\n"
    "static inline void nvtxNameCudaDeviceA(int device, const char* n) { (void)device; (void)n; }\n"
    "static inline void nvtxNameCudaStreamA(hipStream_t s, const char* n) { (void)s; (void)n; }\n"
    "static inline void nvtxNameCudaEventA(hipEvent_t e, const char* n) { (void)e; (void)n; }\n"
    "static inline void nvtxNameCuDeviceA(hipDevice_t device, const char* n) { (void)device; (void)n; }\n"
    "static inline void nvtxNameCuContextA(hipCtx_t c, const char* n) { (void)c; (void)n; }\n"
    "static inline void nvtxNameCuStreamA(hipStream_t s, const char* n) { (void)s; (void)n; }\n"
    "static inline void nvtxNameCuEventA(hipEvent_t e, const char* n) { (void)e; (void)n; }\n"
    "#define nvtxMark nvtxMarkA\n"
    "#define nvtxRangeStart nvtxRangeStartA\n"
    "#define nvtxRangePush nvtxRangePushA\n"
    "#define nvtxNameCategory nvtxNameCategoryA\n"
    "#define nvtxNameOsThread nvtxNameOsThreadA\n"
    "#define nvtxDomainCreate nvtxDomainCreateA\n"
    "#define nvtxDomainRegisterString nvtxDomainRegisterStringA\n"
    "#define nvtxDomainNameCategory nvtxDomainNameCategoryA\n"
    "#define nvtxNameCudaDevice nvtxNameCudaDeviceA\n"
    "#define nvtxNameCudaStream nvtxNameCudaStreamA\n"
    "#define nvtxNameCudaEvent nvtxNameCudaEventA\n"
    "#define nvtxNameCuDevice nvtxNameCuDeviceA\n"
    "#define nvtxNameCuContext nvtxNameCuContextA\n"
    "#define nvtxNameCuStream nvtxNameCuStreamA\n"
    "#define nvtxNameCuEvent nvtxNameCuEventA\n"
    "#endif\n"
    "#endif\n";
constexpr std::array<std::string_view, 6> kNvtxHeaders = {"nvToolsExt.h",       "nvToolsExtCuda.h",       "nvToolsExtCudaRt.h",
                                                          "nvtx3/nvToolsExt.h", "nvtx3/nvToolsExtCuda.h", "nvtx3/nvToolsExtCudaRt.h"};

// CUDART_VERSION and CUDA_VERSION, which code tests to pick the CUDA features it uses, and nvcc's
// version (__CUDACC_VER_MAJOR__, ..., which cuSZ prints): on AMD the release whose API the
// tables map (kMappedCudaRelease), the one gpuport nvcc reports, so that the branches taken are
// the ones whose calls the translation covers; on NVIDIA CUDA's own.
constexpr std::string_view kCudartVersion =
    "#if defined(__HIP_PLATFORM_AMD__) && !defined(GPUPORT_CUDART_VERSION)\n"
    "#define GPUPORT_CUDART_VERSION /* added by gpuport: the CUDA release whose API the translation covers */\n"
    "#if !defined(CUDART_VERSION)\n"
    "#define CUDART_VERSION 12060\n"
    "#endif\n"
    "#if !defined(CUDA_VERSION)\n"
    "#define CUDA_VERSION 12060\n"
    "#endif\n"
    "#if !defined(__CUDACC_VER_MAJOR__)\n"
    "#define __CUDACC_VER_MAJOR__ 12\n"
    "#endif\n"
    "#if !defined(__CUDACC_VER_MINOR__)\n"
    "#define __CUDACC_VER_MINOR__ 6\n"
    "#endif\n"
    "#if !defined(__CUDACC_VER_BUILD__)\n"
    "#define __CUDACC_VER_BUILD__ 0\n"
    "#endif\n"
    "#endif\n";
constexpr std::array<std::string_view, 5> kCudartVersionTriggers = {"CUDART_VERSION", "CUDA_VERSION", "__CUDACC_VER_MAJOR__",
                                                                    "__CUDACC_VER_MINOR__", "__CUDACC_VER_BUILD__"};
static_assert(kMappedCudaRelease == 12060, "kCudartVersion spells the release out");

// CUDA's SIMD-in-word video intrinsics (per byte or halfword: __vsub4, __vsubss4, __vcmpne4,
// __vabsdiffu4, ..., __vsads4) and __dp4a, which HIP lacks (ggml's quantized dot products use
// them): each lane computed as CUDA's documentation defines it, wrapping or saturating; on
// NVIDIA CUDA's own. __vavgs2/4 (signed rounding) and __dp2a are left unsupported.
constexpr std::string_view kSimdVideo =
    "#if !defined(GPUPORT_SIMD_VIDEO)\n"
    "#define GPUPORT_SIMD_VIDEO /* added by gpuport: HIP has no SIMD-in-word video intrinsics (__vsub4, __dp4a, ...) */\n"
    "#if defined(__HIP_PLATFORM_AMD__)\n"
    "template <int W> __device__ static inline int gpuport_sat_s(int v) { return v < -(1 << (W - 1)) ? -(1 << (W - 1)) : v > (1 << (W - 1)) - 1 ? (1 << (W - 1)) - 1 : v; }\n"
    "template <int W> __device__ static inline int gpuport_sat_u(int v) { return v < 0 ? 0 : v > (1 << W) - 1 ? (1 << W) - 1 : v; }\n"
    "template <int W, typename F> __device__ static inline unsigned int gpuport_simd(unsigned int a, unsigned int b, F f) {\n"
    "  const unsigned int mask = (1u << W) - 1u;\n"
    "  unsigned int r = 0;\n"
    "  for (int i = 0; i < 32; i += W) {\n"
    "    const unsigned int ua = (a >> i) & mask, ub = (b >> i) & mask;\n"
    "    const int sa = static_cast<int>(ua << (32 - W)) >> (32 - W), sb = static_cast<int>(ub << (32 - W)) >> (32 - W);\n"
    "    r |= (static_cast<unsigned int>(f(sa, sb, static_cast<int>(ua), static_cast<int>(ub))) & mask) << i;\n"
    "  }\n"
    "  return r;\n"
    "}\n"
    "__device__ static inline unsigned int gpuport_vabs4(unsigned int a) { return gpuport_simd<8>(a, 0u, [](int sa, int, int, int) -> int { return sa < 0 ? -sa : sa; }); }\n"
    "__device__ static inline unsigned int gpuport_vabsss4(unsigned int a) { return gpuport_simd<8>(a, 0u, [](int sa, int, int, int) -> int { return gpuport_sat_s<8>(sa < 0 ? -sa : sa); }); }\n"
    "__device__ static inline unsigned int gpuport_vneg4(unsigned int a) { return gpuport_simd<8>(a, 0u, [](int sa, int, int, int) -> int { return -sa; }); }\n"
    "__device__ static inline unsigned int gpuport_vnegss4(unsigned int a) { return gpuport_simd<8>(a, 0u, [](int sa, int, int, int) -> int { return gpuport_sat_s<8>(-sa); }); }\n"
    "__device__ static inline unsigned int gpuport_vabsdiffs4(unsigned int a, unsigned int b) { return gpuport_simd<8>(a, b, [](int sa, int sb, int ua, int ub) -> int { (void)sa; (void)sb; (void)ua; (void)ub; return sa > sb ? sa - sb : sb - sa; }); }\n"
    "__device__ static inline unsigned int gpuport_vabsdiffu4(unsigned int a, unsigned int b) { return gpuport_simd<8>(a, b, [](int sa, int sb, int ua, int ub) -> int { (void)sa; (void)sb; (void)ua; (void)ub; return ua > ub ? ua - ub : ub - ua; }); }\n"
    "__device__ static inline unsigned int gpuport_vadd4(unsigned int a, unsigned int b) { return gpuport_simd<8>(a, b, [](int sa, int sb, int ua, int ub) -> int { (void)sa; (void)sb; (void)ua; (void)ub; return ua + ub; }); }\n"
    "__device__ static inline unsigned int gpuport_vaddss4(unsigned int a, unsigned int b) { return gpuport_simd<8>(a, b, [](int sa, int sb, int ua, int ub) -> int { (void)sa; (void)sb; (void)ua; (void)ub; return gpuport_sat_s<8>(sa + sb); }); }\n"
    "__device__ static inline unsigned int gpuport_vaddus4(unsigned int a, unsigned int b) { return gpuport_simd<8>(a, b, [](int sa, int sb, int ua, int ub) -> int { (void)sa; (void)sb; (void)ua; (void)ub; return gpuport_sat_u<8>(ua + ub); }); }\n"
    "__device__ static inline unsigned int gpuport_vsub4(unsigned int a, unsigned int b) { return gpuport_simd<8>(a, b, [](int sa, int sb, int ua, int ub) -> int { (void)sa; (void)sb; (void)ua; (void)ub; return ua - ub; }); }\n"
    "__device__ static inline unsigned int gpuport_vsubss4(unsigned int a, unsigned int b) { return gpuport_simd<8>(a, b, [](int sa, int sb, int ua, int ub) -> int { (void)sa; (void)sb; (void)ua; (void)ub; return gpuport_sat_s<8>(sa - sb); }); }\n"
    "__device__ static inline unsigned int gpuport_vsubus4(unsigned int a, unsigned int b) { return gpuport_simd<8>(a, b, [](int sa, int sb, int ua, int ub) -> int { (void)sa; (void)sb; (void)ua; (void)ub; return gpuport_sat_u<8>(ua - ub); }); }\n"
    "__device__ static inline unsigned int gpuport_vavgu4(unsigned int a, unsigned int b) { return gpuport_simd<8>(a, b, [](int sa, int sb, int ua, int ub) -> int { (void)sa; (void)sb; (void)ua; (void)ub; return (ua + ub + 1) >> 1; }); }\n"
    "__device__ static inline unsigned int gpuport_vhaddu4(unsigned int a, unsigned int b) { return gpuport_simd<8>(a, b, [](int sa, int sb, int ua, int ub) -> int { (void)sa; (void)sb; (void)ua; (void)ub; return (ua + ub) >> 1; }); }\n"
    "__device__ static inline unsigned int gpuport_vmaxs4(unsigned int a, unsigned int b) { return gpuport_simd<8>(a, b, [](int sa, int sb, int ua, int ub) -> int { (void)sa; (void)sb; (void)ua; (void)ub; return sa > sb ? sa : sb; }); }\n"
    "__device__ static inline unsigned int gpuport_vmaxu4(unsigned int a, unsigned int b) { return gpuport_simd<8>(a, b, [](int sa, int sb, int ua, int ub) -> int { (void)sa; (void)sb; (void)ua; (void)ub; return ua > ub ? ua : ub; }); }\n"
    "__device__ static inline unsigned int gpuport_vmins4(unsigned int a, unsigned int b) { return gpuport_simd<8>(a, b, [](int sa, int sb, int ua, int ub) -> int { (void)sa; (void)sb; (void)ua; (void)ub; return sa < sb ? sa : sb; }); }\n"
    "__device__ static inline unsigned int gpuport_vminu4(unsigned int a, unsigned int b) { return gpuport_simd<8>(a, b, [](int sa, int sb, int ua, int ub) -> int { (void)sa; (void)sb; (void)ua; (void)ub; return ua < ub ? ua : ub; }); }\n"
    "__device__ static inline unsigned int gpuport_vcmpeq4(unsigned int a, unsigned int b) { return gpuport_simd<8>(a, b, [](int sa, int sb, int ua, int ub) -> int { (void)sa; (void)sb; (void)ua; (void)ub; return ua == ub ? -1 : 0; }); }\n"
    "__device__ static inline unsigned int gpuport_vseteq4(unsigned int a, unsigned int b) { return gpuport_simd<8>(a, b, [](int sa, int sb, int ua, int ub) -> int { (void)sa; (void)sb; (void)ua; (void)ub; return ua == ub ? 1 : 0; }); }\n"
    "__device__ static inline unsigned int gpuport_vcmpne4(unsigned int a, unsigned int b) { return gpuport_simd<8>(a, b, [](int sa, int sb, int ua, int ub) -> int { (void)sa; (void)sb; (void)ua; (void)ub; return ua != ub ? -1 : 0; }); }\n"
    "__device__ static inline unsigned int gpuport_vsetne4(unsigned int a, unsigned int b) { return gpuport_simd<8>(a, b, [](int sa, int sb, int ua, int ub) -> int { (void)sa; (void)sb; (void)ua; (void)ub; return ua != ub ? 1 : 0; }); }\n"
    "__device__ static inline unsigned int gpuport_vcmpges4(unsigned int a, unsigned int b) { return gpuport_simd<8>(a, b, [](int sa, int sb, int ua, int ub) -> int { (void)sa; (void)sb; (void)ua; (void)ub; return sa >= sb ? -1 : 0; }); }\n"
    "__device__ static inline unsigned int gpuport_vcmpgeu4(unsigned int a, unsigned int b) { return gpuport_simd<8>(a, b, [](int sa, int sb, int ua, int ub) -> int { (void)sa; (void)sb; (void)ua; (void)ub; return ua >= ub ? -1 : 0; }); }\n"
    "__device__ static inline unsigned int gpuport_vsetges4(unsigned int a, unsigned int b) { return gpuport_simd<8>(a, b, [](int sa, int sb, int ua, int ub) -> int { (void)sa; (void)sb; (void)ua; (void)ub; return sa >= sb ? 1 : 0; }); }\n"
    "__device__ static inline unsigned int gpuport_vsetgeu4(unsigned int a, unsigned int b) { return gpuport_simd<8>(a, b, [](int sa, int sb, int ua, int ub) -> int { (void)sa; (void)sb; (void)ua; (void)ub; return ua >= ub ? 1 : 0; }); }\n"
    "__device__ static inline unsigned int gpuport_vcmpgts4(unsigned int a, unsigned int b) { return gpuport_simd<8>(a, b, [](int sa, int sb, int ua, int ub) -> int { (void)sa; (void)sb; (void)ua; (void)ub; return sa > sb ? -1 : 0; }); }\n"
    "__device__ static inline unsigned int gpuport_vcmpgtu4(unsigned int a, unsigned int b) { return gpuport_simd<8>(a, b, [](int sa, int sb, int ua, int ub) -> int { (void)sa; (void)sb; (void)ua; (void)ub; return ua > ub ? -1 : 0; }); }\n"
    "__device__ static inline unsigned int gpuport_vsetgts4(unsigned int a, unsigned int b) { return gpuport_simd<8>(a, b, [](int sa, int sb, int ua, int ub) -> int { (void)sa; (void)sb; (void)ua; (void)ub; return sa > sb ? 1 : 0; }); }\n"
    "__device__ static inline unsigned int gpuport_vsetgtu4(unsigned int a, unsigned int b) { return gpuport_simd<8>(a, b, [](int sa, int sb, int ua, int ub) -> int { (void)sa; (void)sb; (void)ua; (void)ub; return ua > ub ? 1 : 0; }); }\n"
    "__device__ static inline unsigned int gpuport_vcmples4(unsigned int a, unsigned int b) { return gpuport_simd<8>(a, b, [](int sa, int sb, int ua, int ub) -> int { (void)sa; (void)sb; (void)ua; (void)ub; return sa <= sb ? -1 : 0; }); }\n"
    "__device__ static inline unsigned int gpuport_vcmpleu4(unsigned int a, unsigned int b) { return gpuport_simd<8>(a, b, [](int sa, int sb, int ua, int ub) -> int { (void)sa; (void)sb; (void)ua; (void)ub; return ua <= ub ? -1 : 0; }); }\n"
    "__device__ static inline unsigned int gpuport_vsetles4(unsigned int a, unsigned int b) { return gpuport_simd<8>(a, b, [](int sa, int sb, int ua, int ub) -> int { (void)sa; (void)sb; (void)ua; (void)ub; return sa <= sb ? 1 : 0; }); }\n"
    "__device__ static inline unsigned int gpuport_vsetleu4(unsigned int a, unsigned int b) { return gpuport_simd<8>(a, b, [](int sa, int sb, int ua, int ub) -> int { (void)sa; (void)sb; (void)ua; (void)ub; return ua <= ub ? 1 : 0; }); }\n"
    "__device__ static inline unsigned int gpuport_vcmplts4(unsigned int a, unsigned int b) { return gpuport_simd<8>(a, b, [](int sa, int sb, int ua, int ub) -> int { (void)sa; (void)sb; (void)ua; (void)ub; return sa < sb ? -1 : 0; }); }\n"
    "__device__ static inline unsigned int gpuport_vcmpltu4(unsigned int a, unsigned int b) { return gpuport_simd<8>(a, b, [](int sa, int sb, int ua, int ub) -> int { (void)sa; (void)sb; (void)ua; (void)ub; return ua < ub ? -1 : 0; }); }\n"
    "__device__ static inline unsigned int gpuport_vsetlts4(unsigned int a, unsigned int b) { return gpuport_simd<8>(a, b, [](int sa, int sb, int ua, int ub) -> int { (void)sa; (void)sb; (void)ua; (void)ub; return sa < sb ? 1 : 0; }); }\n"
    "__device__ static inline unsigned int gpuport_vsetltu4(unsigned int a, unsigned int b) { return gpuport_simd<8>(a, b, [](int sa, int sb, int ua, int ub) -> int { (void)sa; (void)sb; (void)ua; (void)ub; return ua < ub ? 1 : 0; }); }\n"
    "__device__ static inline unsigned int gpuport_vabs2(unsigned int a) { return gpuport_simd<16>(a, 0u, [](int sa, int, int, int) -> int { return sa < 0 ? -sa : sa; }); }\n"
    "__device__ static inline unsigned int gpuport_vabsss2(unsigned int a) { return gpuport_simd<16>(a, 0u, [](int sa, int, int, int) -> int { return gpuport_sat_s<16>(sa < 0 ? -sa : sa); }); }\n"
    "__device__ static inline unsigned int gpuport_vneg2(unsigned int a) { return gpuport_simd<16>(a, 0u, [](int sa, int, int, int) -> int { return -sa; }); }\n"
    "__device__ static inline unsigned int gpuport_vnegss2(unsigned int a) { return gpuport_simd<16>(a, 0u, [](int sa, int, int, int) -> int { return gpuport_sat_s<16>(-sa); }); }\n"
    "__device__ static inline unsigned int gpuport_vabsdiffs2(unsigned int a, unsigned int b) { return gpuport_simd<16>(a, b, [](int sa, int sb, int ua, int ub) -> int { (void)sa; (void)sb; (void)ua; (void)ub; return sa > sb ? sa - sb : sb - sa; }); }\n"
    "__device__ static inline unsigned int gpuport_vabsdiffu2(unsigned int a, unsigned int b) { return gpuport_simd<16>(a, b, [](int sa, int sb, int ua, int ub) -> int { (void)sa; (void)sb; (void)ua; (void)ub; return ua > ub ? ua - ub : ub - ua; }); }\n"
    "__device__ static inline unsigned int gpuport_vadd2(unsigned int a, unsigned int b) { return gpuport_simd<16>(a, b, [](int sa, int sb, int ua, int ub) -> int { (void)sa; (void)sb; (void)ua; (void)ub; return ua + ub; }); }\n"
    "__device__ static inline unsigned int gpuport_vaddss2(unsigned int a, unsigned int b) { return gpuport_simd<16>(a, b, [](int sa, int sb, int ua, int ub) -> int { (void)sa; (void)sb; (void)ua; (void)ub; return gpuport_sat_s<16>(sa + sb); }); }\n"
    "__device__ static inline unsigned int gpuport_vaddus2(unsigned int a, unsigned int b) { return gpuport_simd<16>(a, b, [](int sa, int sb, int ua, int ub) -> int { (void)sa; (void)sb; (void)ua; (void)ub; return gpuport_sat_u<16>(ua + ub); }); }\n"
    "__device__ static inline unsigned int gpuport_vsub2(unsigned int a, unsigned int b) { return gpuport_simd<16>(a, b, [](int sa, int sb, int ua, int ub) -> int { (void)sa; (void)sb; (void)ua; (void)ub; return ua - ub; }); }\n"
    "__device__ static inline unsigned int gpuport_vsubss2(unsigned int a, unsigned int b) { return gpuport_simd<16>(a, b, [](int sa, int sb, int ua, int ub) -> int { (void)sa; (void)sb; (void)ua; (void)ub; return gpuport_sat_s<16>(sa - sb); }); }\n"
    "__device__ static inline unsigned int gpuport_vsubus2(unsigned int a, unsigned int b) { return gpuport_simd<16>(a, b, [](int sa, int sb, int ua, int ub) -> int { (void)sa; (void)sb; (void)ua; (void)ub; return gpuport_sat_u<16>(ua - ub); }); }\n"
    "__device__ static inline unsigned int gpuport_vavgu2(unsigned int a, unsigned int b) { return gpuport_simd<16>(a, b, [](int sa, int sb, int ua, int ub) -> int { (void)sa; (void)sb; (void)ua; (void)ub; return (ua + ub + 1) >> 1; }); }\n"
    "__device__ static inline unsigned int gpuport_vhaddu2(unsigned int a, unsigned int b) { return gpuport_simd<16>(a, b, [](int sa, int sb, int ua, int ub) -> int { (void)sa; (void)sb; (void)ua; (void)ub; return (ua + ub) >> 1; }); }\n"
    "__device__ static inline unsigned int gpuport_vmaxs2(unsigned int a, unsigned int b) { return gpuport_simd<16>(a, b, [](int sa, int sb, int ua, int ub) -> int { (void)sa; (void)sb; (void)ua; (void)ub; return sa > sb ? sa : sb; }); }\n"
    "__device__ static inline unsigned int gpuport_vmaxu2(unsigned int a, unsigned int b) { return gpuport_simd<16>(a, b, [](int sa, int sb, int ua, int ub) -> int { (void)sa; (void)sb; (void)ua; (void)ub; return ua > ub ? ua : ub; }); }\n"
    "__device__ static inline unsigned int gpuport_vmins2(unsigned int a, unsigned int b) { return gpuport_simd<16>(a, b, [](int sa, int sb, int ua, int ub) -> int { (void)sa; (void)sb; (void)ua; (void)ub; return sa < sb ? sa : sb; }); }\n"
    "__device__ static inline unsigned int gpuport_vminu2(unsigned int a, unsigned int b) { return gpuport_simd<16>(a, b, [](int sa, int sb, int ua, int ub) -> int { (void)sa; (void)sb; (void)ua; (void)ub; return ua < ub ? ua : ub; }); }\n"
    "__device__ static inline unsigned int gpuport_vcmpeq2(unsigned int a, unsigned int b) { return gpuport_simd<16>(a, b, [](int sa, int sb, int ua, int ub) -> int { (void)sa; (void)sb; (void)ua; (void)ub; return ua == ub ? -1 : 0; }); }\n"
    "__device__ static inline unsigned int gpuport_vseteq2(unsigned int a, unsigned int b) { return gpuport_simd<16>(a, b, [](int sa, int sb, int ua, int ub) -> int { (void)sa; (void)sb; (void)ua; (void)ub; return ua == ub ? 1 : 0; }); }\n"
    "__device__ static inline unsigned int gpuport_vcmpne2(unsigned int a, unsigned int b) { return gpuport_simd<16>(a, b, [](int sa, int sb, int ua, int ub) -> int { (void)sa; (void)sb; (void)ua; (void)ub; return ua != ub ? -1 : 0; }); }\n"
    "__device__ static inline unsigned int gpuport_vsetne2(unsigned int a, unsigned int b) { return gpuport_simd<16>(a, b, [](int sa, int sb, int ua, int ub) -> int { (void)sa; (void)sb; (void)ua; (void)ub; return ua != ub ? 1 : 0; }); }\n"
    "__device__ static inline unsigned int gpuport_vcmpges2(unsigned int a, unsigned int b) { return gpuport_simd<16>(a, b, [](int sa, int sb, int ua, int ub) -> int { (void)sa; (void)sb; (void)ua; (void)ub; return sa >= sb ? -1 : 0; }); }\n"
    "__device__ static inline unsigned int gpuport_vcmpgeu2(unsigned int a, unsigned int b) { return gpuport_simd<16>(a, b, [](int sa, int sb, int ua, int ub) -> int { (void)sa; (void)sb; (void)ua; (void)ub; return ua >= ub ? -1 : 0; }); }\n"
    "__device__ static inline unsigned int gpuport_vsetges2(unsigned int a, unsigned int b) { return gpuport_simd<16>(a, b, [](int sa, int sb, int ua, int ub) -> int { (void)sa; (void)sb; (void)ua; (void)ub; return sa >= sb ? 1 : 0; }); }\n"
    "__device__ static inline unsigned int gpuport_vsetgeu2(unsigned int a, unsigned int b) { return gpuport_simd<16>(a, b, [](int sa, int sb, int ua, int ub) -> int { (void)sa; (void)sb; (void)ua; (void)ub; return ua >= ub ? 1 : 0; }); }\n"
    "__device__ static inline unsigned int gpuport_vcmpgts2(unsigned int a, unsigned int b) { return gpuport_simd<16>(a, b, [](int sa, int sb, int ua, int ub) -> int { (void)sa; (void)sb; (void)ua; (void)ub; return sa > sb ? -1 : 0; }); }\n"
    "__device__ static inline unsigned int gpuport_vcmpgtu2(unsigned int a, unsigned int b) { return gpuport_simd<16>(a, b, [](int sa, int sb, int ua, int ub) -> int { (void)sa; (void)sb; (void)ua; (void)ub; return ua > ub ? -1 : 0; }); }\n"
    "__device__ static inline unsigned int gpuport_vsetgts2(unsigned int a, unsigned int b) { return gpuport_simd<16>(a, b, [](int sa, int sb, int ua, int ub) -> int { (void)sa; (void)sb; (void)ua; (void)ub; return sa > sb ? 1 : 0; }); }\n"
    "__device__ static inline unsigned int gpuport_vsetgtu2(unsigned int a, unsigned int b) { return gpuport_simd<16>(a, b, [](int sa, int sb, int ua, int ub) -> int { (void)sa; (void)sb; (void)ua; (void)ub; return ua > ub ? 1 : 0; }); }\n"
    "__device__ static inline unsigned int gpuport_vcmples2(unsigned int a, unsigned int b) { return gpuport_simd<16>(a, b, [](int sa, int sb, int ua, int ub) -> int { (void)sa; (void)sb; (void)ua; (void)ub; return sa <= sb ? -1 : 0; }); }\n"
    "__device__ static inline unsigned int gpuport_vcmpleu2(unsigned int a, unsigned int b) { return gpuport_simd<16>(a, b, [](int sa, int sb, int ua, int ub) -> int { (void)sa; (void)sb; (void)ua; (void)ub; return ua <= ub ? -1 : 0; }); }\n"
    "__device__ static inline unsigned int gpuport_vsetles2(unsigned int a, unsigned int b) { return gpuport_simd<16>(a, b, [](int sa, int sb, int ua, int ub) -> int { (void)sa; (void)sb; (void)ua; (void)ub; return sa <= sb ? 1 : 0; }); }\n"
    "__device__ static inline unsigned int gpuport_vsetleu2(unsigned int a, unsigned int b) { return gpuport_simd<16>(a, b, [](int sa, int sb, int ua, int ub) -> int { (void)sa; (void)sb; (void)ua; (void)ub; return ua <= ub ? 1 : 0; }); }\n"
    "__device__ static inline unsigned int gpuport_vcmplts2(unsigned int a, unsigned int b) { return gpuport_simd<16>(a, b, [](int sa, int sb, int ua, int ub) -> int { (void)sa; (void)sb; (void)ua; (void)ub; return sa < sb ? -1 : 0; }); }\n"
    "__device__ static inline unsigned int gpuport_vcmpltu2(unsigned int a, unsigned int b) { return gpuport_simd<16>(a, b, [](int sa, int sb, int ua, int ub) -> int { (void)sa; (void)sb; (void)ua; (void)ub; return ua < ub ? -1 : 0; }); }\n"
    "__device__ static inline unsigned int gpuport_vsetlts2(unsigned int a, unsigned int b) { return gpuport_simd<16>(a, b, [](int sa, int sb, int ua, int ub) -> int { (void)sa; (void)sb; (void)ua; (void)ub; return sa < sb ? 1 : 0; }); }\n"
    "__device__ static inline unsigned int gpuport_vsetltu2(unsigned int a, unsigned int b) { return gpuport_simd<16>(a, b, [](int sa, int sb, int ua, int ub) -> int { (void)sa; (void)sb; (void)ua; (void)ub; return ua < ub ? 1 : 0; }); }\n"
    "__device__ static inline unsigned int gpuport_vsads4(unsigned int a, unsigned int b) { unsigned int s = 0; const unsigned int d = gpuport_vabsdiffs4(a, b); for (int i = 0; i < 32; i += 8) s += (d >> i) & ((1u << 8) - 1u); return s; }\n"
    "__device__ static inline unsigned int gpuport_vsadu4(unsigned int a, unsigned int b) { unsigned int s = 0; const unsigned int d = gpuport_vabsdiffu4(a, b); for (int i = 0; i < 32; i += 8) s += (d >> i) & ((1u << 8) - 1u); return s; }\n"
    "__device__ static inline unsigned int gpuport_vsads2(unsigned int a, unsigned int b) { unsigned int s = 0; const unsigned int d = gpuport_vabsdiffs2(a, b); for (int i = 0; i < 32; i += 16) s += (d >> i) & ((1u << 16) - 1u); return s; }\n"
    "__device__ static inline unsigned int gpuport_vsadu2(unsigned int a, unsigned int b) { unsigned int s = 0; const unsigned int d = gpuport_vabsdiffu2(a, b); for (int i = 0; i < 32; i += 16) s += (d >> i) & ((1u << 16) - 1u); return s; }\n"
    "__device__ static inline int gpuport_dp4a(int a, int b, int c) {\n"
    "  for (int i = 0; i < 32; i += 8) c += (static_cast<int>(static_cast<unsigned int>(a) << (24 - i)) >> 24) * (static_cast<int>(static_cast<unsigned int>(b) << (24 - i)) >> 24);\n"
    "  return c;\n"
    "}\n"
    "__device__ static inline unsigned int gpuport_dp4a(unsigned int a, unsigned int b, unsigned int c) {\n"
    "  for (int i = 0; i < 32; i += 8) c += ((a >> i) & 0xffu) * ((b >> i) & 0xffu);\n"
    "  return c;\n"
    "}\n"
    "#else\n"
    "#define gpuport_vabs4(...) __vabs4(__VA_ARGS__)\n"
    "#define gpuport_vabsss4(...) __vabsss4(__VA_ARGS__)\n"
    "#define gpuport_vneg4(...) __vneg4(__VA_ARGS__)\n"
    "#define gpuport_vnegss4(...) __vnegss4(__VA_ARGS__)\n"
    "#define gpuport_vabsdiffs4(...) __vabsdiffs4(__VA_ARGS__)\n"
    "#define gpuport_vabsdiffu4(...) __vabsdiffu4(__VA_ARGS__)\n"
    "#define gpuport_vadd4(...) __vadd4(__VA_ARGS__)\n"
    "#define gpuport_vaddss4(...) __vaddss4(__VA_ARGS__)\n"
    "#define gpuport_vaddus4(...) __vaddus4(__VA_ARGS__)\n"
    "#define gpuport_vsub4(...) __vsub4(__VA_ARGS__)\n"
    "#define gpuport_vsubss4(...) __vsubss4(__VA_ARGS__)\n"
    "#define gpuport_vsubus4(...) __vsubus4(__VA_ARGS__)\n"
    "#define gpuport_vavgu4(...) __vavgu4(__VA_ARGS__)\n"
    "#define gpuport_vhaddu4(...) __vhaddu4(__VA_ARGS__)\n"
    "#define gpuport_vmaxs4(...) __vmaxs4(__VA_ARGS__)\n"
    "#define gpuport_vmaxu4(...) __vmaxu4(__VA_ARGS__)\n"
    "#define gpuport_vmins4(...) __vmins4(__VA_ARGS__)\n"
    "#define gpuport_vminu4(...) __vminu4(__VA_ARGS__)\n"
    "#define gpuport_vcmpeq4(...) __vcmpeq4(__VA_ARGS__)\n"
    "#define gpuport_vseteq4(...) __vseteq4(__VA_ARGS__)\n"
    "#define gpuport_vcmpne4(...) __vcmpne4(__VA_ARGS__)\n"
    "#define gpuport_vsetne4(...) __vsetne4(__VA_ARGS__)\n"
    "#define gpuport_vcmpges4(...) __vcmpges4(__VA_ARGS__)\n"
    "#define gpuport_vcmpgeu4(...) __vcmpgeu4(__VA_ARGS__)\n"
    "#define gpuport_vsetges4(...) __vsetges4(__VA_ARGS__)\n"
    "#define gpuport_vsetgeu4(...) __vsetgeu4(__VA_ARGS__)\n"
    "#define gpuport_vcmpgts4(...) __vcmpgts4(__VA_ARGS__)\n"
    "#define gpuport_vcmpgtu4(...) __vcmpgtu4(__VA_ARGS__)\n"
    "#define gpuport_vsetgts4(...) __vsetgts4(__VA_ARGS__)\n"
    "#define gpuport_vsetgtu4(...) __vsetgtu4(__VA_ARGS__)\n"
    "#define gpuport_vcmples4(...) __vcmples4(__VA_ARGS__)\n"
    "#define gpuport_vcmpleu4(...) __vcmpleu4(__VA_ARGS__)\n"
    "#define gpuport_vsetles4(...) __vsetles4(__VA_ARGS__)\n"
    "#define gpuport_vsetleu4(...) __vsetleu4(__VA_ARGS__)\n"
    "#define gpuport_vcmplts4(...) __vcmplts4(__VA_ARGS__)\n"
    "#define gpuport_vcmpltu4(...) __vcmpltu4(__VA_ARGS__)\n"
    "#define gpuport_vsetlts4(...) __vsetlts4(__VA_ARGS__)\n"
    "#define gpuport_vsetltu4(...) __vsetltu4(__VA_ARGS__)\n"
    "#define gpuport_vabs2(...) __vabs2(__VA_ARGS__)\n"
    "#define gpuport_vabsss2(...) __vabsss2(__VA_ARGS__)\n"
    "#define gpuport_vneg2(...) __vneg2(__VA_ARGS__)\n"
    "#define gpuport_vnegss2(...) __vnegss2(__VA_ARGS__)\n"
    "#define gpuport_vabsdiffs2(...) __vabsdiffs2(__VA_ARGS__)\n"
    "#define gpuport_vabsdiffu2(...) __vabsdiffu2(__VA_ARGS__)\n"
    "#define gpuport_vadd2(...) __vadd2(__VA_ARGS__)\n"
    "#define gpuport_vaddss2(...) __vaddss2(__VA_ARGS__)\n"
    "#define gpuport_vaddus2(...) __vaddus2(__VA_ARGS__)\n"
    "#define gpuport_vsub2(...) __vsub2(__VA_ARGS__)\n"
    "#define gpuport_vsubss2(...) __vsubss2(__VA_ARGS__)\n"
    "#define gpuport_vsubus2(...) __vsubus2(__VA_ARGS__)\n"
    "#define gpuport_vavgu2(...) __vavgu2(__VA_ARGS__)\n"
    "#define gpuport_vhaddu2(...) __vhaddu2(__VA_ARGS__)\n"
    "#define gpuport_vmaxs2(...) __vmaxs2(__VA_ARGS__)\n"
    "#define gpuport_vmaxu2(...) __vmaxu2(__VA_ARGS__)\n"
    "#define gpuport_vmins2(...) __vmins2(__VA_ARGS__)\n"
    "#define gpuport_vminu2(...) __vminu2(__VA_ARGS__)\n"
    "#define gpuport_vcmpeq2(...) __vcmpeq2(__VA_ARGS__)\n"
    "#define gpuport_vseteq2(...) __vseteq2(__VA_ARGS__)\n"
    "#define gpuport_vcmpne2(...) __vcmpne2(__VA_ARGS__)\n"
    "#define gpuport_vsetne2(...) __vsetne2(__VA_ARGS__)\n"
    "#define gpuport_vcmpges2(...) __vcmpges2(__VA_ARGS__)\n"
    "#define gpuport_vcmpgeu2(...) __vcmpgeu2(__VA_ARGS__)\n"
    "#define gpuport_vsetges2(...) __vsetges2(__VA_ARGS__)\n"
    "#define gpuport_vsetgeu2(...) __vsetgeu2(__VA_ARGS__)\n"
    "#define gpuport_vcmpgts2(...) __vcmpgts2(__VA_ARGS__)\n"
    "#define gpuport_vcmpgtu2(...) __vcmpgtu2(__VA_ARGS__)\n"
    "#define gpuport_vsetgts2(...) __vsetgts2(__VA_ARGS__)\n"
    "#define gpuport_vsetgtu2(...) __vsetgtu2(__VA_ARGS__)\n"
    "#define gpuport_vcmples2(...) __vcmples2(__VA_ARGS__)\n"
    "#define gpuport_vcmpleu2(...) __vcmpleu2(__VA_ARGS__)\n"
    "#define gpuport_vsetles2(...) __vsetles2(__VA_ARGS__)\n"
    "#define gpuport_vsetleu2(...) __vsetleu2(__VA_ARGS__)\n"
    "#define gpuport_vcmplts2(...) __vcmplts2(__VA_ARGS__)\n"
    "#define gpuport_vcmpltu2(...) __vcmpltu2(__VA_ARGS__)\n"
    "#define gpuport_vsetlts2(...) __vsetlts2(__VA_ARGS__)\n"
    "#define gpuport_vsetltu2(...) __vsetltu2(__VA_ARGS__)\n"
    "#define gpuport_vsads4(...) __vsads4(__VA_ARGS__)\n"
    "#define gpuport_vsadu4(...) __vsadu4(__VA_ARGS__)\n"
    "#define gpuport_vsads2(...) __vsads2(__VA_ARGS__)\n"
    "#define gpuport_vsadu2(...) __vsadu2(__VA_ARGS__)\n"
    "#define gpuport_dp4a(...) __dp4a(__VA_ARGS__)\n"
    "#endif\n"
    "#endif\n";
constexpr std::array<std::string_view, 81> kSimdVideoTriggers = {"gpuport_vabs4", "gpuport_vabsss4", "gpuport_vneg4", "gpuport_vnegss4", "gpuport_vabsdiffs4", "gpuport_vabsdiffu4", "gpuport_vadd4", "gpuport_vaddss4", "gpuport_vaddus4", "gpuport_vsub4", "gpuport_vsubss4", "gpuport_vsubus4", "gpuport_vavgu4", "gpuport_vhaddu4", "gpuport_vmaxs4", "gpuport_vmaxu4", "gpuport_vmins4", "gpuport_vminu4", "gpuport_vcmpeq4", "gpuport_vseteq4", "gpuport_vcmpne4", "gpuport_vsetne4", "gpuport_vcmpges4", "gpuport_vcmpgeu4", "gpuport_vsetges4", "gpuport_vsetgeu4", "gpuport_vcmpgts4", "gpuport_vcmpgtu4", "gpuport_vsetgts4", "gpuport_vsetgtu4", "gpuport_vcmples4", "gpuport_vcmpleu4", "gpuport_vsetles4", "gpuport_vsetleu4", "gpuport_vcmplts4", "gpuport_vcmpltu4", "gpuport_vsetlts4", "gpuport_vsetltu4", "gpuport_vabs2", "gpuport_vabsss2", "gpuport_vneg2", "gpuport_vnegss2", "gpuport_vabsdiffs2", "gpuport_vabsdiffu2", "gpuport_vadd2", "gpuport_vaddss2", "gpuport_vaddus2", "gpuport_vsub2", "gpuport_vsubss2", "gpuport_vsubus2", "gpuport_vavgu2", "gpuport_vhaddu2", "gpuport_vmaxs2", "gpuport_vmaxu2", "gpuport_vmins2", "gpuport_vminu2", "gpuport_vcmpeq2", "gpuport_vseteq2", "gpuport_vcmpne2", "gpuport_vsetne2", "gpuport_vcmpges2", "gpuport_vcmpgeu2", "gpuport_vsetges2", "gpuport_vsetgeu2", "gpuport_vcmpgts2", "gpuport_vcmpgtu2", "gpuport_vsetgts2", "gpuport_vsetgtu2", "gpuport_vcmples2", "gpuport_vcmpleu2", "gpuport_vsetles2", "gpuport_vsetleu2", "gpuport_vcmplts2", "gpuport_vcmpltu2", "gpuport_vsetlts2", "gpuport_vsetltu2", "gpuport_vsads4", "gpuport_vsadu4", "gpuport_vsads2", "gpuport_vsadu2", "gpuport_dp4a"};

// The level the shims that read it assume when the translation names none (kDeviceCudaArch;
// cuda_level_definition writes the same block for another level).
#define GPUPORT_DEFAULT_LEVEL                                                                                       \
  "#if !defined(GPUPORT_CUDA_LEVEL)\n"                                                                            \
  "#define GPUPORT_CUDA_LEVEL 610 /* added by gpuport: the CUDA architecture gfx1100's device code stands in for */\n" \
  "#endif\n"
static_assert(kDeviceCudaArch == 610, "GPUPORT_DEFAULT_LEVEL spells the default level out");

// __CUDA_ARCH__ for its value where gpuport cannot decide a comparison in its place (a macro's
// body, a comparison with another macro: ggml's `#define NO_DEVICE_CODE ...(__CUDA_ARCH__)`,
// `__CUDA_ARCH__ >= CC_PASCAL`): gfx1100's device passes read as sm_61's level (kDeviceCudaArch), the host pass 0
// (in #if CUDA's host pass reads the undefined name as 0 too); on NVIDIA CUDA's own.
constexpr std::string_view kCudaArch =
    "#if !defined(GPUPORT_CUDA_ARCH)\n"
    "#if defined(__HIP_PLATFORM_NVIDIA__) && defined(__CUDA_ARCH__)\n"
    "#define GPUPORT_CUDA_ARCH __CUDA_ARCH__\n"
    "#elif defined(__HIP_DEVICE_COMPILE__)\n"
    GPUPORT_DEFAULT_LEVEL
    "#define GPUPORT_CUDA_ARCH GPUPORT_CUDA_LEVEL\n"
    "#else\n"
    "#define GPUPORT_CUDA_ARCH 0\n"
    "#endif\n"
    "#endif\n";

// CUDA's half max/min (__hmax, __hmin, their _nan forms and the __half2 ones; ggml's warp
// reductions use __hmax2): HIP 5.2 has none, HIP 6's only for __half. Through float, where a half
// is exact: a NaN operand yields the other one (fmaxf), or NaN for the _nan forms, as CUDA does.
constexpr std::string_view kHalfMinMax =
    "#if !defined(GPUPORT_HALF_MINMAX)\n"
    "#define GPUPORT_HALF_MINMAX /* added by gpuport: CUDA's __hmax/__hmin (and __half2, _nan forms) */\n"
    "#if defined(__HIP_PLATFORM_AMD__)\n"
    "#include <hip/hip_fp16.h>\n"
    "__device__ static inline __half gpuport_hmax(__half a, __half b) { return __float2half(fmaxf(__half2float(a), __half2float(b))); }\n"
    "__device__ static inline __half gpuport_hmin(__half a, __half b) { return __float2half(fminf(__half2float(a), __half2float(b))); }\n"
    "__device__ static inline __half gpuport_hmax_nan(__half a, __half b) {\n"
    "  const float x = __half2float(a), y = __half2float(b);\n"
    "  return __float2half(x != x || y != y ? __builtin_nanf(\"\") : fmaxf(x, y));\n"
    "}\n"
    "__device__ static inline __half gpuport_hmin_nan(__half a, __half b) {\n"
    "  const float x = __half2float(a), y = __half2float(b);\n"
    "  return __float2half(x != x || y != y ? __builtin_nanf(\"\") : fminf(x, y));\n"
    "}\n"
    "__device__ static inline __half2 gpuport_hmax2(__half2 a, __half2 b) {\n"
    "  return __halves2half2(gpuport_hmax(__low2half(a), __low2half(b)), gpuport_hmax(__high2half(a), __high2half(b)));\n"
    "}\n"
    "__device__ static inline __half2 gpuport_hmin2(__half2 a, __half2 b) {\n"
    "  return __halves2half2(gpuport_hmin(__low2half(a), __low2half(b)), gpuport_hmin(__high2half(a), __high2half(b)));\n"
    "}\n"
    "__device__ static inline __half2 gpuport_hmax2_nan(__half2 a, __half2 b) {\n"
    "  return __halves2half2(gpuport_hmax_nan(__low2half(a), __low2half(b)), gpuport_hmax_nan(__high2half(a), __high2half(b)));\n"
    "}\n"
    "__device__ static inline __half2 gpuport_hmin2_nan(__half2 a, __half2 b) {\n"
    "  return __halves2half2(gpuport_hmin_nan(__low2half(a), __low2half(b)), gpuport_hmin_nan(__high2half(a), __high2half(b)));\n"
    "}\n"
    "#else\n"
    "#define gpuport_hmax(...) __hmax(__VA_ARGS__)\n"
    "#define gpuport_hmin(...) __hmin(__VA_ARGS__)\n"
    "#define gpuport_hmax_nan(...) __hmax_nan(__VA_ARGS__)\n"
    "#define gpuport_hmin_nan(...) __hmin_nan(__VA_ARGS__)\n"
    "#define gpuport_hmax2(...) __hmax2(__VA_ARGS__)\n"
    "#define gpuport_hmin2(...) __hmin2(__VA_ARGS__)\n"
    "#define gpuport_hmax2_nan(...) __hmax2_nan(__VA_ARGS__)\n"
    "#define gpuport_hmin2_nan(...) __hmin2_nan(__VA_ARGS__)\n"
    "#endif\n"
    "#endif\n";
constexpr std::array<std::string_view, 8> kHalfMinMaxTriggers = {"gpuport_hmax",  "gpuport_hmin",  "gpuport_hmax_nan",
                                                                 "gpuport_hmin_nan", "gpuport_hmax2", "gpuport_hmin2",
                                                                 "gpuport_hmax2_nan", "gpuport_hmin2_nan"};

// On gfx10/gfx11 in wave64 a ds_bpermute, which HIP's __shfl* all are (HIP 5.2's, and clr's later
// header still), reads lane (own lane & 32) | (index & 31): only the lane's own 32-lane half (RDNA3 guide,
// DS_BPERMUTE_B32: lane "MOD 32 regardless of wave size"), so a width-64 step whose source is in
// the other half reads the wrong lane. These keep HIP's signatures and lane arithmetic (width,
// clamping, index & 63) and read the source lane across the whole wave: on gfx11 a ds_bpermute of
// the value with its halves swapped by v_permlane64 reaches it, through the lane of this half
// that holds it (index ^ 32), as AMD's LLPC does; a full wave takes only that. In a partial wave
// that lane may be inactive; those lanes, and every cross-half read on gfx10 (no v_permlane64),
// read the source one lane at a time with v_readlane, which ignores EXEC. An inactive source
// gives 0, as on gfx9's 64-lane ds_bpermute. wave32, gfx9 wave64, the host pass and NVIDIA get
// HIP's own. The match and reduce shims shuffle too, and come after this one.
constexpr std::string_view kWave64Shuffles =
    "#if defined(__HIP_DEVICE_COMPILE__) && (defined(__GFX10__) || defined(__GFX11__)) && __AMDGCN_WAVEFRONT_SIZE == 64 && !defined(GPUPORT_WAVE64_SHFL)\n"
    "#define GPUPORT_WAVE64_SHFL /* added by gpuport: HIP's __shfl* read only the lane's own 32-lane half on gfx10/gfx11 in wave64 */\n"
    "__device__ static inline int gpuport_wave64_read(int v, int src) {\n"
    "  src &= 63;\n"
    "  const int lane = __lane_id();\n"
    "  const bool across = ((src ^ lane) & 32) != 0;\n"
    "  const int own_half = __builtin_amdgcn_ds_bpermute(src << 2, v);\n"
    "  const unsigned long long active = __ballot(1);\n"
    "#if defined(__GFX11__)\n"
    "  const int other_half = __builtin_amdgcn_ds_bpermute(src << 2, __builtin_amdgcn_permlane64(v));\n"
    "  if (active == ~0ull) return across ? other_half : own_half;\n"
    "  const bool mirrored = ((active >> (src ^ 32)) & 1) != 0;\n"
    "#else\n"
    "  const int other_half = 0;\n"
    "  const bool mirrored = false;\n"
    "#endif\n"
    "  const bool live = ((active >> src) & 1) != 0;\n"
    "  int r = !live ? 0 : across ? other_half : own_half;\n"
    "  for (unsigned long long left = __ballot(live && across && !mirrored); left != 0; left &= left - 1) {\n"
    "    const int l = __builtin_ctzll(left);\n"
    "    const int x = __builtin_amdgcn_readlane(v, __builtin_amdgcn_readlane(src, l));\n"
    "    if (lane == l) r = x;\n"
    "  }\n"
    "  return r;\n"
    "}\n"
    "template <typename T> __device__ static inline T gpuport_wave64_value(T v, int src) {\n"
    "  int w[sizeof(T) / sizeof(int)];\n"
    "  __builtin_memcpy(w, &v, sizeof(T));\n"
    "  for (unsigned k = 0; k < sizeof(T) / sizeof(int); ++k) w[k] = gpuport_wave64_read(w[k], src);\n"
    "  __builtin_memcpy(&v, w, sizeof(T));\n"
    "  return v;\n"
    "}\n"
    "__device__ static inline int gpuport_shfl_lane(int src_lane, int width) {\n"
    "  const int self = __lane_id();\n"
    "  return src_lane + (self & ~(width - 1));\n"
    "}\n"
    "__device__ static inline int gpuport_shfl_up_lane(unsigned int delta, int width) {\n"
    "  const int self = __lane_id(), index = self - delta;\n"
    "  return index < (self & ~(width - 1)) ? self : index;\n"
    "}\n"
    "__device__ static inline int gpuport_shfl_down_lane(unsigned int delta, int width) {\n"
    "  const int self = __lane_id();\n"
    "  return static_cast<int>((self & (width - 1)) + delta) >= width ? self : static_cast<int>(self + delta);\n"
    "}\n"
    "__device__ static inline int gpuport_shfl_xor_lane(int mask, int width) {\n"
    "  const int self = __lane_id(), index = self ^ mask;\n"
    "  return index >= ((self + width) & ~(width - 1)) ? self : index;\n"
    "}\n"
    "#define GPUPORT_WAVE64_SHFL_FOR(T) \\\n"
    "  __device__ static inline T gpuport_shfl(T var, int src_lane, int width = warpSize) { return gpuport_wave64_value(var, gpuport_shfl_lane(src_lane, width)); } \\\n"
    "  __device__ static inline T gpuport_shfl_up(T var, unsigned int lane_delta, int width = warpSize) { return gpuport_wave64_value(var, gpuport_shfl_up_lane(lane_delta, width)); } \\\n"
    "  __device__ static inline T gpuport_shfl_down(T var, unsigned int lane_delta, int width = warpSize) { return gpuport_wave64_value(var, gpuport_shfl_down_lane(lane_delta, width)); } \\\n"
    "  __device__ static inline T gpuport_shfl_xor(T var, int lane_mask, int width = warpSize) { return gpuport_wave64_value(var, gpuport_shfl_xor_lane(lane_mask, width)); }\n"
    "GPUPORT_WAVE64_SHFL_FOR(int)\n"
    "GPUPORT_WAVE64_SHFL_FOR(unsigned int)\n"
    "GPUPORT_WAVE64_SHFL_FOR(float)\n"
    "GPUPORT_WAVE64_SHFL_FOR(double)\n"
    "GPUPORT_WAVE64_SHFL_FOR(long)\n"
    "GPUPORT_WAVE64_SHFL_FOR(unsigned long)\n"
    "GPUPORT_WAVE64_SHFL_FOR(long long)\n"
    "GPUPORT_WAVE64_SHFL_FOR(unsigned long long)\n"
    "#undef GPUPORT_WAVE64_SHFL_FOR\n"
    "#define __shfl gpuport_shfl\n"
    "#define __shfl_up gpuport_shfl_up\n"
    "#define __shfl_down gpuport_shfl_down\n"
    "#define __shfl_xor gpuport_shfl_xor\n"
    "#endif\n";
constexpr std::array<std::string_view, 12> kWave64ShuffleTriggers = {
    "__shfl", "__shfl_up", "__shfl_down", "__shfl_xor", "gpuport_match_any", "gpuport_match_all", "gpuport_reduce_add",
    "gpuport_reduce_min", "gpuport_reduce_max", "gpuport_reduce_and", "gpuport_reduce_or", "gpuport_reduce_xor"};

// __match_any_sync / __match_all_sync with the mask dropped, as the other *_sync calls are: HIP
// has no mask-free form (HIP 6.2's *_sync forms need HIP_ENABLE_WARP_SYNC_BUILTINS and 64-bit
// masks). On AMD the active lanes are grouped by the bits of their value (as the hardware
// match compares them: NaNs with the same bits are peers), one group per round, the lowest
// ungrouped lane leading; on NVIDIA CUDA's own functions run over the active lanes.
constexpr std::string_view kMatch =
    "#if !defined(GPUPORT_MATCH)\n"
    "#define GPUPORT_MATCH /* added by gpuport: HIP has no mask-free __match_any/__match_all */\n"
    "#if defined(__HIP_PLATFORM_AMD__)\n"
    "template <typename T> __device__ static inline unsigned long long gpuport_match_key(T value) {\n"
    "  static_assert(sizeof(T) == 4 || sizeof(T) == 8, \"__match_*_sync compares 32- and 64-bit values\");\n"
    "  unsigned long long key = 0;\n"
    "  __builtin_memcpy(&key, &value, sizeof(T));\n"
    "  return key;\n"
    "}\n"
    "template <typename T> __device__ static inline unsigned long long gpuport_match_any(T value) {\n"
    "  const unsigned long long key = gpuport_match_key(value);\n"
    "  unsigned long long peers = 0;\n"
    "  bool grouped = false;\n"
    "  for (;;) {\n"
    "    const unsigned long long left = __ballot(!grouped);\n"
    "    if (left == 0) break;\n"
    "    const unsigned long long leader_key = __shfl(key, __ffsll(left) - 1);\n"
    "    const bool same = !grouped && leader_key == key;\n"
    "    const unsigned long long group = __ballot(same);\n"
    "    if (same) {\n"
    "      peers = group;\n"
    "      grouped = true;\n"
    "    }\n"
    "  }\n"
    "  return peers;\n"
    "}\n"
    "template <typename T> __device__ static inline unsigned long long gpuport_match_all(T value, int* pred) {\n"
    "  const unsigned long long key = gpuport_match_key(value);\n"
    "  const unsigned long long active = __ballot(1);\n"
    "  const bool same = __all(__shfl(key, __ffsll(active) - 1) == key);\n"
    "  *pred = same;\n"
    "  return same ? active : 0;\n"
    "}\n"
    "#else\n"
    "template <typename T> __device__ static inline unsigned int gpuport_match_any(T value) {\n"
    "  return __match_any_sync(__activemask(), value);\n"
    "}\n"
    "template <typename T> __device__ static inline unsigned int gpuport_match_all(T value, int* pred) {\n"
    "  return __match_all_sync(__activemask(), value, pred);\n"
    "}\n"
    "#endif\n"
    "#endif\n";
constexpr std::array<std::string_view, 2> kMatchTriggers = {"gpuport_match_any", "gpuport_match_all"};

// __reduce_*_sync with the mask dropped: the active lanes' values combined in lane order (each
// lane shuffles every active lane's value in turn; exact for the integer operations CUDA has).
constexpr std::string_view kReduce =
    "#if !defined(GPUPORT_REDUCE)\n"
    "#define GPUPORT_REDUCE /* added by gpuport: HIP has no __reduce_*_sync */\n"
    "#if defined(__HIP_PLATFORM_AMD__)\n"
    "template <typename T, typename Op> __device__ static inline T gpuport_reduce_active(T value, Op op) {\n"
    "  unsigned long long lanes = __ballot(1);\n"
    "  T result = __shfl(value, __ffsll(lanes) - 1);\n"
    "  for (lanes &= lanes - 1; lanes != 0; lanes &= lanes - 1) result = op(result, __shfl(value, __ffsll(lanes) - 1));\n"
    "  return result;\n"
    "}\n"
    "struct gpuport_add { template <typename T> __device__ T operator()(T a, T b) const { return a + b; } };\n"
    "struct gpuport_min { template <typename T> __device__ T operator()(T a, T b) const { return b < a ? b : a; } };\n"
    "struct gpuport_max { template <typename T> __device__ T operator()(T a, T b) const { return a < b ? b : a; } };\n"
    "struct gpuport_and { __device__ unsigned operator()(unsigned a, unsigned b) const { return a & b; } };\n"
    "struct gpuport_or { __device__ unsigned operator()(unsigned a, unsigned b) const { return a | b; } };\n"
    "struct gpuport_xor { __device__ unsigned operator()(unsigned a, unsigned b) const { return a ^ b; } };\n"
    "__device__ static inline unsigned gpuport_reduce_add(unsigned v) { return gpuport_reduce_active(v, gpuport_add()); }\n"
    "__device__ static inline int gpuport_reduce_add(int v) { return gpuport_reduce_active(v, gpuport_add()); }\n"
    "__device__ static inline unsigned gpuport_reduce_min(unsigned v) { return gpuport_reduce_active(v, gpuport_min()); }\n"
    "__device__ static inline int gpuport_reduce_min(int v) { return gpuport_reduce_active(v, gpuport_min()); }\n"
    "__device__ static inline unsigned gpuport_reduce_max(unsigned v) { return gpuport_reduce_active(v, gpuport_max()); }\n"
    "__device__ static inline int gpuport_reduce_max(int v) { return gpuport_reduce_active(v, gpuport_max()); }\n"
    "__device__ static inline unsigned gpuport_reduce_and(unsigned v) { return gpuport_reduce_active(v, gpuport_and()); }\n"
    "__device__ static inline unsigned gpuport_reduce_or(unsigned v) { return gpuport_reduce_active(v, gpuport_or()); }\n"
    "__device__ static inline unsigned gpuport_reduce_xor(unsigned v) { return gpuport_reduce_active(v, gpuport_xor()); }\n"
    "#else\n"
    "__device__ static inline unsigned gpuport_reduce_add(unsigned v) { return __reduce_add_sync(__activemask(), v); }\n"
    "__device__ static inline int gpuport_reduce_add(int v) { return __reduce_add_sync(__activemask(), v); }\n"
    "__device__ static inline unsigned gpuport_reduce_min(unsigned v) { return __reduce_min_sync(__activemask(), v); }\n"
    "__device__ static inline int gpuport_reduce_min(int v) { return __reduce_min_sync(__activemask(), v); }\n"
    "__device__ static inline unsigned gpuport_reduce_max(unsigned v) { return __reduce_max_sync(__activemask(), v); }\n"
    "__device__ static inline int gpuport_reduce_max(int v) { return __reduce_max_sync(__activemask(), v); }\n"
    "__device__ static inline unsigned gpuport_reduce_and(unsigned v) { return __reduce_and_sync(__activemask(), v); }\n"
    "__device__ static inline unsigned gpuport_reduce_or(unsigned v) { return __reduce_or_sync(__activemask(), v); }\n"
    "__device__ static inline unsigned gpuport_reduce_xor(unsigned v) { return __reduce_xor_sync(__activemask(), v); }\n"
    "#endif\n"
    "#endif\n";
constexpr std::array<std::string_view, 6> kReduceTriggers = {"gpuport_reduce_add", "gpuport_reduce_min", "gpuport_reduce_max",
                                                             "gpuport_reduce_and", "gpuport_reduce_or",  "gpuport_reduce_xor"};

// cooperative_groups::reduce and its function objects (<cooperative_groups/reduce.h>), which no
// HIP has (5.2, 6.2, nor clr as of October 2024): on AMD a butterfly over a tile's lanes with
// its shfl_xor, and over a coalesced group's ranks one by one with its shfl; on NVIDIA CUDA's
// own header. CUDA's names are kept, in HIP's cooperative_groups namespace.
constexpr std::string_view kCgReduce =
    "#if !defined(GPUPORT_CG_REDUCE)\n"
    "#define GPUPORT_CG_REDUCE /* added by gpuport: HIP's cooperative groups have no reduce */\n"
    "#include <hip/hip_cooperative_groups.h>\n"
    "#if defined(__HIP_PLATFORM_AMD__)\n"
    "namespace cooperative_groups {\n"
    "template <typename T> struct plus { __device__ T operator()(const T& a, const T& b) const { return a + b; } };\n"
    "template <typename T> struct less { __device__ T operator()(const T& a, const T& b) const { return b < a ? b : a; } };\n"
    "template <typename T> struct greater { __device__ T operator()(const T& a, const T& b) const { return a < b ? b : a; } };\n"
    "template <typename T> struct bit_and { __device__ T operator()(const T& a, const T& b) const { return a & b; } };\n"
    "template <typename T> struct bit_or { __device__ T operator()(const T& a, const T& b) const { return a | b; } };\n"
    "template <typename T> struct bit_xor { __device__ T operator()(const T& a, const T& b) const { return a ^ b; } };\n"
    "template <unsigned int N, class P, typename T, typename Op>\n"
    "__device__ static inline T reduce(const thread_block_tile<N, P>& tile, T value, Op op) {\n"
    "  for (unsigned int offset = N / 2; offset > 0; offset /= 2) value = op(value, tile.shfl_xor(value, offset));\n"
    "  return value;\n"
    "}\n"
    "template <typename T, typename Op> __device__ static inline T reduce(const coalesced_group& group, T value, Op op) {\n"
    "  T result = group.shfl(value, 0);\n"
    "  for (unsigned int rank = 1; rank < group.size(); ++rank) result = op(result, group.shfl(value, static_cast<int>(rank)));\n"
    "  return result;\n"
    "}\n"
    "}  // namespace cooperative_groups\n"
    "#else\n"
    "#include <cooperative_groups/reduce.h>\n"
    "#endif\n"
    "#endif\n";
constexpr std::array<std::string_view, 1> kCgReduceHeaders = {"cooperative_groups/reduce.h"};

// CUDA's value-returning surface reads (`surf2Dread<T>(surf, x, y)`): HIP has only the forms
// that store through a pointer. On NVIDIA CUDA's own run.
constexpr std::string_view kSurfRead =
    "#if !defined(GPUPORT_SURF_READ)\n"
    "#define GPUPORT_SURF_READ /* added by gpuport: HIP's surface reads store through a pointer */\n"
    "#if defined(__HIP_PLATFORM_AMD__)\n"
    "#if HIP_VERSION >= 50700000 /* from HIP 5.7 only surf1Dread takes a boundary mode (5.2: every read) */\n"
    "#define GPUPORT_SURF_MODE(mode)\n"
    "#else\n"
    "#define GPUPORT_SURF_MODE(mode) , mode...\n"
    "#endif\n"
    "template <typename T, typename... Mode> __device__ static inline T gpuport_surf1Dread(hipSurfaceObject_t s, int x, Mode... mode) {\n"
    "  T v;\n"
    "  surf1Dread(&v, s, x, mode...);\n"
    "  return v;\n"
    "}\n"
    "template <typename T, typename... Mode> __device__ static inline T gpuport_surf2Dread(hipSurfaceObject_t s, int x, int y, Mode... mode) {\n"
    "  T v;\n"
    "  surf2Dread(&v, s, x, y GPUPORT_SURF_MODE(mode));\n"
    "  return v;\n"
    "}\n"
    "template <typename T, typename... Mode> __device__ static inline T gpuport_surf3Dread(hipSurfaceObject_t s, int x, int y, int z, Mode... mode) {\n"
    "  T v;\n"
    "  surf3Dread(&v, s, x, y, z GPUPORT_SURF_MODE(mode));\n"
    "  return v;\n"
    "}\n"
    "template <typename T, typename... Mode> __device__ static inline T gpuport_surf1DLayeredread(hipSurfaceObject_t s, int x, int layer, Mode... mode) {\n"
    "  T v;\n"
    "  surf1DLayeredread(&v, s, x, layer GPUPORT_SURF_MODE(mode));\n"
    "  return v;\n"
    "}\n"
    "template <typename T, typename... Mode> __device__ static inline T gpuport_surf2DLayeredread(hipSurfaceObject_t s, int x, int y, int layer, Mode... mode) {\n"
    "  T v;\n"
    "  surf2DLayeredread(&v, s, x, y, layer GPUPORT_SURF_MODE(mode));\n"
    "  return v;\n"
    "}\n"
    "#else\n"
    "template <typename T, typename... Mode> __device__ static inline T gpuport_surf1Dread(hipSurfaceObject_t s, int x, Mode... mode) {\n"
    "  return surf1Dread<T>(s, x, mode...);\n"
    "}\n"
    "template <typename T, typename... Mode> __device__ static inline T gpuport_surf2Dread(hipSurfaceObject_t s, int x, int y, Mode... mode) {\n"
    "  return surf2Dread<T>(s, x, y, mode...);\n"
    "}\n"
    "template <typename T, typename... Mode> __device__ static inline T gpuport_surf3Dread(hipSurfaceObject_t s, int x, int y, int z, Mode... mode) {\n"
    "  return surf3Dread<T>(s, x, y, z, mode...);\n"
    "}\n"
    "template <typename T, typename... Mode> __device__ static inline T gpuport_surf1DLayeredread(hipSurfaceObject_t s, int x, int layer, Mode... mode) {\n"
    "  return surf1DLayeredread<T>(s, x, layer, mode...);\n"
    "}\n"
    "template <typename T, typename... Mode> __device__ static inline T gpuport_surf2DLayeredread(hipSurfaceObject_t s, int x, int y, int layer, Mode... mode) {\n"
    "  return surf2DLayeredread<T>(s, x, y, layer, mode...);\n"
    "}\n"
    "#endif\n"
    "#endif\n";
constexpr std::array<std::string_view, 5> kSurfReadTriggers = {"gpuport_surf1Dread", "gpuport_surf2Dread", "gpuport_surf3Dread",
                                                               "gpuport_surf1DLayeredread", "gpuport_surf2DLayeredread"};

// CUDA's surface reads and writes take a boundary mode as their last argument; from HIP 5.7 only
// surf1Dread does (amd_surface_functions.h; 5.2's all did). Overloads with the extra argument
// forward to HIP's, which then treat out-of-range coordinates as HIP does whatever the mode.
constexpr std::string_view kSurfMode =
    "#if defined(__HIP_PLATFORM_AMD__) && HIP_VERSION >= 50700000 && !defined(GPUPORT_SURF_MODE_ARG)\n"
    "#define GPUPORT_SURF_MODE_ARG /* added by gpuport: HIP 5.7 and later take no boundary mode (but in surf1Dread) */\n"
    "template <typename T> __device__ static inline void surf2Dread(T* d, hipSurfaceObject_t s, int x, int y, int) { surf2Dread(d, s, x, y); }\n"
    "template <typename T> __device__ static inline void surf3Dread(T* d, hipSurfaceObject_t s, int x, int y, int z, int) { surf3Dread(d, s, x, y, z); }\n"
    "template <typename T> __device__ static inline void surf1DLayeredread(T* d, hipSurfaceObject_t s, int x, int l, int) { surf1DLayeredread(d, s, x, l); }\n"
    "template <typename T> __device__ static inline void surf2DLayeredread(T* d, hipSurfaceObject_t s, int x, int y, int l, int) { surf2DLayeredread(d, s, x, y, l); }\n"
    "template <typename T> __device__ static inline void surf1Dwrite(T v, hipSurfaceObject_t s, int x, int) { surf1Dwrite(v, s, x); }\n"
    "template <typename T> __device__ static inline void surf2Dwrite(T v, hipSurfaceObject_t s, int x, int y, int) { surf2Dwrite(v, s, x, y); }\n"
    "template <typename T> __device__ static inline void surf3Dwrite(T v, hipSurfaceObject_t s, int x, int y, int z, int) { surf3Dwrite(v, s, x, y, z); }\n"
    "template <typename T> __device__ static inline void surf1DLayeredwrite(T v, hipSurfaceObject_t s, int x, int l, int) { surf1DLayeredwrite(v, s, x, l); }\n"
    "template <typename T> __device__ static inline void surf2DLayeredwrite(T v, hipSurfaceObject_t s, int x, int y, int l, int) { surf2DLayeredwrite(v, s, x, y, l); }\n"
    "#endif\n";
constexpr std::array<std::string_view, 9> kSurfModeTriggers = {"surf2Dread", "surf3Dread", "surf1DLayeredread", "surf2DLayeredread",
                                                               "surf1Dwrite", "surf2Dwrite", "surf3Dwrite", "surf1DLayeredwrite",
                                                               "surf2DLayeredwrite"};

// The occupancy queries HIP lacks. hipOccupancyMaxPotentialBlockSizeVariableSMem[WithFlags]
// reached AMD in ROCm 5.5 (HIP commit 6d4c13a) and HIP's NVIDIA platform, WithFlags only, in
// ROCm 6.0 (hipother d1fc24e); cudaOccupancyAvailableDynamicSMemPerBlock has no HIP name at all.
// On AMD both are answered by HIP's own occupancy calculator
// (hipOccupancyMaxActiveBlocksPerMultiprocessor): the block size with the most resident
// threads, from the largest allowed down in steps of the wavefront size, as CUDA's header
// searches; the largest dynamic shared memory with numBlocks blocks still resident, by binary
// search. The flags (CUDA's cudaOccupancyDisableCachingOverride) change nothing on AMD.
constexpr std::string_view kOccupancy =
    "#if !defined(GPUPORT_OCCUPANCY)\n"
    "#define GPUPORT_OCCUPANCY /* added by gpuport: occupancy queries HIP lacks */\n"
    "#if defined(__HIP_PLATFORM_AMD__)\n"
    "template <class T> static inline hipError_t gpuport_occupancy_limits(T func, hipDeviceProp_t* prop, hipFuncAttributes* attr) {\n"
    "  int device = 0;\n"
    "  hipError_t e = hipGetDevice(&device);\n"
    "  if (e == hipSuccess) e = hipGetDeviceProperties(prop, device);\n"
    "  if (e == hipSuccess) e = hipFuncGetAttributes(attr, reinterpret_cast<const void*>(func));\n"
    "  return e;\n"
    "}\n"
    "#if HIP_VERSION < 50500000\n"
    "template <typename UnaryFunction, class T>\n"
    "static inline hipError_t gpuport_hipOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(\n"
    "    int* min_grid_size, int* block_size, T func, UnaryFunction block_size_to_dynamic_smem_size, int block_size_limit = 0,\n"
    "    unsigned int flags = 0) {\n"
    "  (void)flags;\n"
    "  if (min_grid_size == nullptr || block_size == nullptr) return hipErrorInvalidValue;\n"
    "  hipDeviceProp_t prop;\n"
    "  hipFuncAttributes attr;\n"
    "  hipError_t e = gpuport_occupancy_limits(func, &prop, &attr);\n"
    "  if (e != hipSuccess) return e;\n"
    "  int limit = prop.maxThreadsPerBlock < attr.maxThreadsPerBlock ? prop.maxThreadsPerBlock : attr.maxThreadsPerBlock;\n"
    "  if (block_size_limit > 0 && block_size_limit < limit) limit = block_size_limit;\n"
    "  const int step = prop.warpSize > 0 ? prop.warpSize : 32;\n"
    "  int best_threads = 0, best_block = 0, best_blocks = 0;\n"
    "  for (int b = limit; b > 0; b -= (b % step != 0 ? b % step : step)) {\n"
    "    int blocks = 0;\n"
    "    e = hipOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, func, b, block_size_to_dynamic_smem_size(b));\n"
    "    if (e != hipSuccess) return e;\n"
    "    if (blocks * b > best_threads) {\n"
    "      best_threads = blocks * b;\n"
    "      best_block = b;\n"
    "      best_blocks = blocks;\n"
    "    }\n"
    "  }\n"
    "  *block_size = best_block;\n"
    "  *min_grid_size = best_blocks * prop.multiProcessorCount;\n"
    "  return hipSuccess;\n"
    "}\n"
    "template <typename UnaryFunction, class T>\n"
    "static inline hipError_t gpuport_hipOccupancyMaxPotentialBlockSizeVariableSMem(int* min_grid_size, int* block_size, T func,\n"
    "    UnaryFunction block_size_to_dynamic_smem_size, int block_size_limit = 0) {\n"
    "  return gpuport_hipOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(min_grid_size, block_size, func,\n"
    "                                                                       block_size_to_dynamic_smem_size, block_size_limit, 0);\n"
    "}\n"
    "#define hipOccupancyMaxPotentialBlockSizeVariableSMemWithFlags gpuport_hipOccupancyMaxPotentialBlockSizeVariableSMemWithFlags\n"
    "#define hipOccupancyMaxPotentialBlockSizeVariableSMem gpuport_hipOccupancyMaxPotentialBlockSizeVariableSMem\n"
    "#endif\n"
    "template <class T>\n"
    "static inline hipError_t gpuport_hipOccupancyAvailableDynamicSMemPerBlock(size_t* dynamic_smem_size, T func, int num_blocks,\n"
    "                                                                        int block_size) {\n"
    "  if (dynamic_smem_size == nullptr || num_blocks <= 0 || block_size <= 0) return hipErrorInvalidValue;\n"
    "  hipDeviceProp_t prop;\n"
    "  hipFuncAttributes attr;\n"
    "  hipError_t e = gpuport_occupancy_limits(func, &prop, &attr);\n"
    "  if (e != hipSuccess) return e;\n"
    "  int blocks = 0;\n"
    "  e = hipOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, func, block_size, 0);\n"
    "  if (e != hipSuccess) return e;\n"
    "  *dynamic_smem_size = 0;\n"
    "  if (blocks < num_blocks) return hipSuccess;\n"
    "  size_t low = 0;  // num_blocks blocks with `low` bytes each are resident\n"
    "  size_t high = prop.sharedMemPerBlock > attr.sharedSizeBytes ? prop.sharedMemPerBlock - attr.sharedSizeBytes : 0;\n"
    "  while (low < high) {\n"
    "    const size_t mid = low + (high - low + 1) / 2;\n"
    "    e = hipOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, func, block_size, mid);\n"
    "    if (e != hipSuccess) return e;\n"
    "    if (blocks >= num_blocks) low = mid;\n"
    "    else high = mid - 1;\n"
    "  }\n"
    "  *dynamic_smem_size = low;\n"
    "  return hipSuccess;\n"
    "}\n"
    "#else\n"
    "#if HIP_VERSION < 60000000\n"
    "template <typename UnaryFunction, class T>\n"
    "static inline hipError_t gpuport_hipOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(\n"
    "    int* min_grid_size, int* block_size, T func, UnaryFunction block_size_to_dynamic_smem_size, int block_size_limit = 0,\n"
    "    unsigned int flags = 0) {\n"
    "  return hipCUDAErrorTohipError(cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(\n"
    "      min_grid_size, block_size, func, block_size_to_dynamic_smem_size, block_size_limit, flags));\n"
    "}\n"
    "#define hipOccupancyMaxPotentialBlockSizeVariableSMemWithFlags gpuport_hipOccupancyMaxPotentialBlockSizeVariableSMemWithFlags\n"
    "#endif\n"
    "template <typename UnaryFunction, class T>\n"
    "static inline hipError_t gpuport_hipOccupancyMaxPotentialBlockSizeVariableSMem(int* min_grid_size, int* block_size, T func,\n"
    "    UnaryFunction block_size_to_dynamic_smem_size, int block_size_limit = 0) {\n"
    "  return hipCUDAErrorTohipError(cudaOccupancyMaxPotentialBlockSizeVariableSMem(min_grid_size, block_size, func,\n"
    "                                                                             block_size_to_dynamic_smem_size, block_size_limit));\n"
    "}\n"
    "#define hipOccupancyMaxPotentialBlockSizeVariableSMem gpuport_hipOccupancyMaxPotentialBlockSizeVariableSMem\n"
    "template <class T>\n"
    "static inline hipError_t gpuport_hipOccupancyAvailableDynamicSMemPerBlock(size_t* dynamic_smem_size, T func, int num_blocks,\n"
    "                                                                        int block_size) {\n"
    "  return hipCUDAErrorTohipError(cudaOccupancyAvailableDynamicSMemPerBlock(dynamic_smem_size, func, num_blocks, block_size));\n"
    "}\n"
    "#endif\n"
    "#endif\n";
constexpr std::array<std::string_view, 3> kOccupancyTriggers = {"hipOccupancyMaxPotentialBlockSizeVariableSMem",
                                                                "hipOccupancyMaxPotentialBlockSizeVariableSMemWithFlags",
                                                                "gpuport_hipOccupancyAvailableDynamicSMemPerBlock"};

// cudaMemcpy3DPeer[Async] and its parameter struct, which HIP lacks (ggml copies between
// devices' pools with them): the same copy through hipMemcpy3D[Async] with hipMemcpyDefault, which
// finds each side's device from its address (HIP's unified addressing), so the devices named in
// the struct are not needed. On both platforms.
constexpr std::string_view kMemcpy3DPeer =
    "#if !defined(GPUPORT_MEMCPY3D_PEER)\n"
    "#define GPUPORT_MEMCPY3D_PEER /* added by gpuport: HIP has no cudaMemcpy3DPeer */\n"
    "struct gpuport_hipMemcpy3DPeerParms {\n"
    "  hipArray_t srcArray;\n"
    "  hipPos srcPos;\n"
    "  hipPitchedPtr srcPtr;\n"
    "  int srcDevice;\n"
    "  hipArray_t dstArray;\n"
    "  hipPos dstPos;\n"
    "  hipPitchedPtr dstPtr;\n"
    "  int dstDevice;\n"
    "  hipExtent extent;\n"
    "};\n"
    "static inline hipMemcpy3DParms gpuport_hipMemcpy3DPeerAsPlain(const gpuport_hipMemcpy3DPeerParms* p) {\n"
    "  hipMemcpy3DParms q = {};\n"
    "  q.srcArray = p->srcArray, q.srcPos = p->srcPos, q.srcPtr = p->srcPtr;\n"
    "  q.dstArray = p->dstArray, q.dstPos = p->dstPos, q.dstPtr = p->dstPtr;\n"
    "  q.extent = p->extent, q.kind = hipMemcpyDefault;\n"
    "  return q;\n"
    "}\n"
    "static inline hipError_t gpuport_hipMemcpy3DPeer(const gpuport_hipMemcpy3DPeerParms* p) {\n"
    "  const hipMemcpy3DParms q = gpuport_hipMemcpy3DPeerAsPlain(p);\n"
    "  return hipMemcpy3D(&q);\n"
    "}\n"
    "static inline hipError_t gpuport_hipMemcpy3DPeerAsync(const gpuport_hipMemcpy3DPeerParms* p, hipStream_t stream = 0) {\n"
    "  const hipMemcpy3DParms q = gpuport_hipMemcpy3DPeerAsPlain(p);\n"
    "  return hipMemcpy3DAsync(&q, stream);\n"
    "}\n"
    "#endif\n";
constexpr std::array<std::string_view, 3> kMemcpy3DPeerTriggers = {"gpuport_hipMemcpy3DPeerParms", "gpuport_hipMemcpy3DPeer",
                                                                   "gpuport_hipMemcpy3DPeerAsync"};

// CUdeviceptr is an unsigned integer in CUDA: driver code adds byte offsets to it, rounds it
// and compares it with 0 (ggml's virtual memory pool). HIP's hipDeviceptr_t is a void*, on which
// C++ has no arithmetic. On AMD, gpuport_hipDeviceptr_t keeps CUDA's meaning (a 64-bit integer,
// the same size and layout) and converts to HIP's pointer where a HIP call takes one; the HIP
// calls that return a device pointer through a hipDeviceptr_t* or void* pointer get overloads
// for it. Integer casts and casts to pointer types are explicit, as they are from CUDA's
// integer. In C, and on NVIDIA, it is hipDeviceptr_t itself.
constexpr std::string_view kDeviceptr =
    "#if !defined(GPUPORT_DEVICEPTR)\n"
    "#define GPUPORT_DEVICEPTR /* added by gpuport: CUdeviceptr is an integer in CUDA, a void* in HIP */\n"
    "#if defined(__HIP_PLATFORM_AMD__) && defined(__cplusplus)\n"
    "#include <type_traits>\n"
    "#if defined(__HIPCC__)\n"
    "#define GPUPORT_DEVICEPTR_HD __host__ __device__\n"
    "#else\n"
    "#define GPUPORT_DEVICEPTR_HD\n"
    "#endif\n"
    "#define GPUPORT_DEVICEPTR_BINARY(op, result)                                                                            \\\n"
    "  template <typename I, if_integer<I> = 0>                                                     \\\n"
    "  friend GPUPORT_DEVICEPTR_HD constexpr result operator op(gpuport_hipDeviceptr_t a, I b) { return a.value op static_cast<unsigned long long>(b); } \\\n"
    "  template <typename I, if_integer<I> = 0>                                                     \\\n"
    "  friend GPUPORT_DEVICEPTR_HD constexpr result operator op(I a, gpuport_hipDeviceptr_t b) { return static_cast<unsigned long long>(a) op b.value; } \\\n"
    "  friend GPUPORT_DEVICEPTR_HD constexpr result operator op(gpuport_hipDeviceptr_t a, gpuport_hipDeviceptr_t b) { return a.value op b.value; }\n"
    "struct gpuport_hipDeviceptr_t {\n"
    "  unsigned long long value;\n"
    "  template <typename I> using if_integer = typename std::enable_if<std::is_integral<I>::value, int>::type;\n"
    "  gpuport_hipDeviceptr_t() = default;\n"
    "  template <typename I, if_integer<I> = 0> GPUPORT_DEVICEPTR_HD constexpr gpuport_hipDeviceptr_t(I v) : value(static_cast<unsigned long long>(v)) {}\n"
    "  GPUPORT_DEVICEPTR_HD gpuport_hipDeviceptr_t(const volatile void* p) : value(reinterpret_cast<unsigned long long>(p)) {}\n"
    "  GPUPORT_DEVICEPTR_HD operator void*() const { return reinterpret_cast<void*>(value); }\n"
    "  template <typename T> GPUPORT_DEVICEPTR_HD explicit operator T*() const { return reinterpret_cast<T*>(value); }\n"
    "  template <typename I, if_integer<I> = 0> GPUPORT_DEVICEPTR_HD explicit constexpr operator I() const { return static_cast<I>(value); }\n"
    "  GPUPORT_DEVICEPTR_HD explicit constexpr operator bool() const { return value != 0; }\n"
    "  GPUPORT_DEVICEPTR_HD constexpr gpuport_hipDeviceptr_t operator~() const { return ~value; }\n"
    "  template <typename I, if_integer<I> = 0> GPUPORT_DEVICEPTR_HD gpuport_hipDeviceptr_t& operator+=(I n) { value += n; return *this; }\n"
    "  template <typename I, if_integer<I> = 0> GPUPORT_DEVICEPTR_HD gpuport_hipDeviceptr_t& operator-=(I n) { value -= n; return *this; }\n"
    "  GPUPORT_DEVICEPTR_BINARY(+, gpuport_hipDeviceptr_t)\n"
    "  GPUPORT_DEVICEPTR_BINARY(-, unsigned long long)\n"
    "  GPUPORT_DEVICEPTR_BINARY(&, gpuport_hipDeviceptr_t)\n"
    "  GPUPORT_DEVICEPTR_BINARY(|, gpuport_hipDeviceptr_t)\n"
    "  GPUPORT_DEVICEPTR_BINARY(^, gpuport_hipDeviceptr_t)\n"
    "  GPUPORT_DEVICEPTR_BINARY(<<, unsigned long long)\n"
    "  GPUPORT_DEVICEPTR_BINARY(>>, unsigned long long)\n"
    "  GPUPORT_DEVICEPTR_BINARY(%, unsigned long long)\n"
    "  GPUPORT_DEVICEPTR_BINARY(/, unsigned long long)\n"
    "  GPUPORT_DEVICEPTR_BINARY(==, bool)\n"
    "  GPUPORT_DEVICEPTR_BINARY(!=, bool)\n"
    "  GPUPORT_DEVICEPTR_BINARY(<, bool)\n"
    "  GPUPORT_DEVICEPTR_BINARY(<=, bool)\n"
    "  GPUPORT_DEVICEPTR_BINARY(>, bool)\n"
    "  GPUPORT_DEVICEPTR_BINARY(>=, bool)\n"
    "};\n"
    "#undef GPUPORT_DEVICEPTR_BINARY\n"
    "static_assert(sizeof(gpuport_hipDeviceptr_t) == sizeof(void*), \"CUdeviceptr is pointer-sized\");\n"
    "static inline hipError_t hipMalloc(gpuport_hipDeviceptr_t* p, size_t n) { return hipMalloc(reinterpret_cast<void**>(p), n); }\n"
    "static inline hipError_t hipMallocManaged(gpuport_hipDeviceptr_t* p, size_t n, unsigned int flags = hipMemAttachGlobal) { return hipMallocManaged(reinterpret_cast<void**>(p), n, flags); }\n"
    "static inline hipError_t hipMallocAsync(gpuport_hipDeviceptr_t* p, size_t n, hipStream_t s) { return hipMallocAsync(reinterpret_cast<void**>(p), n, s); }\n"
    "static inline hipError_t hipMallocFromPoolAsync(gpuport_hipDeviceptr_t* p, size_t n, hipMemPool_t pool, hipStream_t s) { return hipMallocFromPoolAsync(reinterpret_cast<void**>(p), n, pool, s); }\n"
    "static inline hipError_t hipMemAllocPitch(gpuport_hipDeviceptr_t* p, size_t* pitch, size_t w, size_t h, unsigned int e) { return hipMemAllocPitch(reinterpret_cast<void**>(p), pitch, w, h, e); }\n"
    "static inline hipError_t hipMemAddressReserve(gpuport_hipDeviceptr_t* p, size_t n, size_t align, void* addr, unsigned long long flags) { return hipMemAddressReserve(reinterpret_cast<void**>(p), n, align, addr, flags); }\n"
    "static inline hipError_t hipMemGetAddressRange(gpuport_hipDeviceptr_t* base, size_t* n, hipDeviceptr_t p) { return hipMemGetAddressRange(reinterpret_cast<void**>(base), n, p); }\n"
    "static inline hipError_t hipModuleGetGlobal(gpuport_hipDeviceptr_t* p, size_t* n, hipModule_t m, const char* name) { return hipModuleGetGlobal(reinterpret_cast<void**>(p), n, m, name); }\n"
    "static inline hipError_t hipHostGetDevicePointer(gpuport_hipDeviceptr_t* p, void* host, unsigned int flags) { return hipHostGetDevicePointer(reinterpret_cast<void**>(p), host, flags); }\n"
    "static inline hipError_t hipIpcOpenMemHandle(gpuport_hipDeviceptr_t* p, hipIpcMemHandle_t h, unsigned int flags) { return hipIpcOpenMemHandle(reinterpret_cast<void**>(p), h, flags); }\n"
    "#undef GPUPORT_DEVICEPTR_HD\n"
    "#else\n"
    "typedef hipDeviceptr_t gpuport_hipDeviceptr_t;\n"
    "#endif\n"
    "#endif\n";
constexpr std::array<std::string_view, 1> kDeviceptrTriggers = {"gpuport_hipDeviceptr_t"};
constexpr std::array<std::string_view, 1> kDeviceptrStandsFor = {"hipDeviceptr_t"};

// The compute capability a translated program is told is the level its device code is compiled
// for (GPUPORT_CUDA_LEVEL: kDeviceCudaArch, 6.1, unless the translation was for another), not the
// gfx version HIP reports in its place (11.0 for gfx1100):
// host code that picks a kernel by it (llama.cpp: dp4a kernels from 6.1, tensor-core tiles from
// 7.0) then picks the variant its device code holds, and not one compiled as a trap.
constexpr std::string_view kDeviceComputeCapability =
    "#if defined(__HIP_PLATFORM_AMD__) && !defined(GPUPORT_DEVICE_CC)\n"
    "#define GPUPORT_DEVICE_CC /* added by gpuport: the compute capability gfx1100's device code is compiled as */\n"
    GPUPORT_DEFAULT_LEVEL
    "static inline hipError_t gpuport_hipGetDeviceProperties(hipDeviceProp_t* prop, int device) {\n"
    "  const hipError_t status = hipGetDeviceProperties(prop, device);\n"
    "  if (status == hipSuccess) {\n"
    "    prop->major = GPUPORT_CUDA_LEVEL / 100;\n"
    "    prop->minor = GPUPORT_CUDA_LEVEL % 100 / 10;\n"
    "  }\n"
    "  return status;\n"
    "}\n"
    "static inline hipError_t gpuport_hipDeviceGetAttribute(int* value, hipDeviceAttribute_t attribute, int device) {\n"
    "  const hipError_t status = hipDeviceGetAttribute(value, attribute, device);\n"
    "  if (status == hipSuccess && attribute == hipDeviceAttributeComputeCapabilityMajor) *value = GPUPORT_CUDA_LEVEL / 100;\n"
    "  if (status == hipSuccess && attribute == hipDeviceAttributeComputeCapabilityMinor) *value = GPUPORT_CUDA_LEVEL % 100 / 10;\n"
    "  return status;\n"
    "}\n"
    "static inline hipError_t gpuport_hipDeviceComputeCapability(int* major, int* minor, hipDevice_t device) {\n"
    "  const hipError_t status = hipDeviceComputeCapability(major, minor, device);\n"
    "  if (status == hipSuccess) {\n"
    "    *major = GPUPORT_CUDA_LEVEL / 100;\n"
    "    *minor = GPUPORT_CUDA_LEVEL % 100 / 10;\n"
    "  }\n"
    "  return status;\n"
    "}\n"
    "#elif !defined(GPUPORT_DEVICE_CC)\n"
    "#define GPUPORT_DEVICE_CC\n"
    "#define gpuport_hipGetDeviceProperties hipGetDeviceProperties\n"
    "#define gpuport_hipDeviceGetAttribute hipDeviceGetAttribute\n"
    "#define gpuport_hipDeviceComputeCapability hipDeviceComputeCapability\n"
    "#endif\n";
constexpr std::array<std::string_view, 3> kDeviceComputeCapabilityTriggers = {
    "gpuport_hipGetDeviceProperties", "gpuport_hipDeviceGetAttribute", "gpuport_hipDeviceComputeCapability"};
constexpr std::array<std::string_view, 3> kDeviceComputeCapabilityStandsFor = {"hipGetDeviceProperties", "hipDeviceGetAttribute",
                                                                               "hipDeviceComputeCapability"};

// A project's own code for AMD (llama.cpp calls rocblas_initialize() under __HIP_PLATFORM_AMD__,
// and includes rocBLAS's header only in its own HIP build's include block): the header.
constexpr std::string_view kRocblas =
    "#if defined(__HIP_PLATFORM_AMD__) && !defined(GPUPORT_ROCBLAS)\n"
    "#define GPUPORT_ROCBLAS /* added by gpuport: the file's code for AMD calls rocBLAS */\n"
    "#include <rocblas/rocblas.h>\n"
    "#endif\n";
constexpr std::array<std::string_view, 1> kRocblasPrefixes = {"rocblas_"};

// cuBLAS's tensor-op math modes permit lower precision (TF32) and do not require it; pedantic
// asks for the standard precision. rocBLAS refuses them (HIPBLAS_STATUS_NOT_SUPPORTED) and
// computes FP32 in full precision, which each of them allows: the default math, and success.
constexpr std::string_view kHipblasMathMode =
    "#if defined(__HIP_PLATFORM_AMD__) && !defined(GPUPORT_HIPBLAS_MATH_MODE)\n"
    "#define GPUPORT_HIPBLAS_MATH_MODE /* added by gpuport: rocBLAS refuses cuBLAS's tensor-op math modes */\n"
    "#include <hipblas/hipblas.h>\n"
    "static inline hipblasStatus_t gpuport_hipblasSetMathMode(hipblasHandle_t handle, hipblasMath_t mode) {\n"
    "  const hipblasStatus_t status = hipblasSetMathMode(handle, mode);\n"
    "  if (status == HIPBLAS_STATUS_NOT_SUPPORTED &&\n"
    "      (mode == HIPBLAS_TF32_TENSOR_OP_MATH || mode == HIPBLAS_TENSOR_OP_MATH || mode == HIPBLAS_PEDANTIC_MATH))\n"
    "    return hipblasSetMathMode(handle, HIPBLAS_DEFAULT_MATH);\n"
    "  return status;\n"
    "}\n"
    "#elif !defined(GPUPORT_HIPBLAS_MATH_MODE)\n"
    "#define GPUPORT_HIPBLAS_MATH_MODE\n"
    "#define gpuport_hipblasSetMathMode hipblasSetMathMode\n"
    "#endif\n";
constexpr std::array<std::string_view, 1> kHipblasMathModeTriggers = {"gpuport_hipblasSetMathMode"};

// NVML (the NVIDIA management library: device count, names, memory, PCI location, versions;
// cuSZ prints the driver's version with it) for a file that includes nvml.h. On AMD its queries
// are answered by HIP's runtime, in NVML's types and return codes; the compute capability and
// the CUDA version are those the translation's device code and CUDART_VERSION stand for. The
// sensors (temperature, power, utilization, clocks) are ROCm SMI's on AMD, which this does not
// read: NVML_ERROR_NOT_SUPPORTED, as NVML answers for a device without them. nvmlInit counts
// across the program's files (a weak counter), and queries before it are
// NVML_ERROR_UNINITIALIZED, as NVML's. On NVIDIA, NVML's own header.
constexpr std::string_view kNvml =
    "#if !defined(GPUPORT_NVML)\n"
    "#define GPUPORT_NVML /* added by gpuport: NVML's device queries answered by HIP's runtime */\n"
    "#if defined(__HIP_PLATFORM_NVIDIA__)\n"
    "#include <nvml.h>\n"
    "#else\n"
    "#include <stdio.h>\n"
    "#include <stdint.h>\n"
    "#include <string.h>\n"
    GPUPORT_DEFAULT_LEVEL
    "typedef enum nvmlReturn_enum {\n"
    "  NVML_SUCCESS = 0, NVML_ERROR_UNINITIALIZED = 1, NVML_ERROR_INVALID_ARGUMENT = 2, NVML_ERROR_NOT_SUPPORTED = 3,\n"
    "  NVML_ERROR_NO_PERMISSION = 4, NVML_ERROR_ALREADY_INITIALIZED = 5, NVML_ERROR_NOT_FOUND = 6, NVML_ERROR_INSUFFICIENT_SIZE = 7,\n"
    "  NVML_ERROR_INSUFFICIENT_POWER = 8, NVML_ERROR_DRIVER_NOT_LOADED = 9, NVML_ERROR_TIMEOUT = 10, NVML_ERROR_IRQ_ISSUE = 11,\n"
    "  NVML_ERROR_LIBRARY_NOT_FOUND = 12, NVML_ERROR_FUNCTION_NOT_FOUND = 13, NVML_ERROR_CORRUPTED_INFOROM = 14,\n"
    "  NVML_ERROR_GPU_IS_LOST = 15, NVML_ERROR_RESET_REQUIRED = 16, NVML_ERROR_OPERATING_SYSTEM = 17,\n"
    "  NVML_ERROR_LIB_RM_VERSION_MISMATCH = 18, NVML_ERROR_IN_USE = 19, NVML_ERROR_MEMORY = 20, NVML_ERROR_NO_DATA = 21,\n"
    "  NVML_ERROR_VGPU_ECC_NOT_SUPPORTED = 22, NVML_ERROR_INSUFFICIENT_RESOURCES = 23, NVML_ERROR_FREQ_NOT_SUPPORTED = 24,\n"
    "  NVML_ERROR_ARGUMENT_VERSION_MISMATCH = 25, NVML_ERROR_UNKNOWN = 999\n"
    "} nvmlReturn_t;\n"
    "typedef struct nvmlDevice_st* nvmlDevice_t;\n"
    "typedef enum nvmlTemperatureSensors_enum { NVML_TEMPERATURE_GPU = 0 } nvmlTemperatureSensors_t;\n"
    "typedef enum nvmlClockType_enum { NVML_CLOCK_GRAPHICS = 0, NVML_CLOCK_SM = 1, NVML_CLOCK_MEM = 2, NVML_CLOCK_VIDEO = 3 } nvmlClockType_t;\n"
    "#define NVML_DEVICE_PCI_BUS_ID_BUFFER_SIZE 32\n"
    "#define NVML_DEVICE_PCI_BUS_ID_BUFFER_V2_SIZE 16\n"
    "#define NVML_DEVICE_UUID_BUFFER_SIZE 80\n"
    "#define NVML_DEVICE_UUID_V2_BUFFER_SIZE 96\n"
    "#define NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE 80\n"
    "#define NVML_SYSTEM_NVML_VERSION_BUFFER_SIZE 80\n"
    "#define NVML_DEVICE_NAME_BUFFER_SIZE 64\n"
    "#define NVML_DEVICE_NAME_V2_BUFFER_SIZE 96\n"
    "#define NVML_DEVICE_PART_NUMBER_BUFFER_SIZE 80\n"
    "#define NVML_DEVICE_SERIAL_BUFFER_SIZE 30\n"
    "#define NVML_DEVICE_VBIOS_VERSION_BUFFER_SIZE 32\n"
    "#define NVML_CUDA_DRIVER_VERSION_MAJOR(v) ((v) / 1000)\n"
    "#define NVML_CUDA_DRIVER_VERSION_MINOR(v) (((v) % 1000) / 10)\n"
    "typedef struct nvmlPciInfo_st {\n"
    "  char busIdLegacy[NVML_DEVICE_PCI_BUS_ID_BUFFER_V2_SIZE];\n"
    "  unsigned int domain, bus, device, pciDeviceId, pciSubSystemId;\n"
    "  char busId[NVML_DEVICE_PCI_BUS_ID_BUFFER_SIZE];\n"
    "} nvmlPciInfo_t;\n"
    "typedef struct nvmlMemory_st { unsigned long long total, free, used; } nvmlMemory_t;\n"
    "typedef struct nvmlUtilization_st { unsigned int gpu, memory; } nvmlUtilization_t;\n"
    "__attribute__((weak)) int gpuport_nvml_users;\n"
    "static inline const char* nvmlErrorString(nvmlReturn_t r) {\n"
    "  switch (r) {\n"
    "    case NVML_SUCCESS: return \"Success\";\n"
    "    case NVML_ERROR_UNINITIALIZED: return \"Uninitialized\";\n"
    "    case NVML_ERROR_INVALID_ARGUMENT: return \"Invalid Argument\";\n"
    "    case NVML_ERROR_NOT_SUPPORTED: return \"Not Supported\";\n"
    "    case NVML_ERROR_NOT_FOUND: return \"Not Found\";\n"
    "    case NVML_ERROR_INSUFFICIENT_SIZE: return \"Insufficient Size\";\n"
    "    case NVML_ERROR_DRIVER_NOT_LOADED: return \"Driver Not Loaded\";\n"
    "    case NVML_ERROR_FUNCTION_NOT_FOUND: return \"Function Not Found\";\n"
    "    default: return \"Unknown Error\";\n"
    "  }\n"
    "}\n"
    "static inline nvmlReturn_t nvmlInit_v2(void) {\n"
    "  if (hipInit(0) != hipSuccess) return NVML_ERROR_DRIVER_NOT_LOADED;\n"
    "  ++gpuport_nvml_users;\n"
    "  return NVML_SUCCESS;\n"
    "}\n"
    "static inline nvmlReturn_t nvmlInitWithFlags(unsigned int flags) { (void)flags; return nvmlInit_v2(); }\n"
    "static inline nvmlReturn_t nvmlShutdown(void) {\n"
    "  if (gpuport_nvml_users == 0) return NVML_ERROR_UNINITIALIZED;\n"
    "  --gpuport_nvml_users;\n"
    "  return NVML_SUCCESS;\n"
    "}\n"
    "static inline nvmlReturn_t gpuport_nvml_text(char* out, unsigned int length, const char* text) {\n"
    "  if (gpuport_nvml_users == 0) return NVML_ERROR_UNINITIALIZED;\n"
    "  if (!out) return NVML_ERROR_INVALID_ARGUMENT;\n"
    "  if (strlen(text) + 1 > length) return NVML_ERROR_INSUFFICIENT_SIZE;\n"
    "  memcpy(out, text, strlen(text) + 1);\n"
    "  return NVML_SUCCESS;\n"
    "}\n"
    "static inline nvmlReturn_t nvmlSystemGetDriverVersion(char* version, unsigned int length) {\n"
    "  int v = 0;\n"
    "  char text[NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE];\n"
    "  if (hipDriverGetVersion(&v) != hipSuccess) return NVML_ERROR_UNKNOWN;\n"
    "  snprintf(text, sizeof text, \"%d.%d.%d\", v / 10000000, v / 100000 % 100, v % 100000);\n"
    "  return gpuport_nvml_text(version, length, text);\n"
    "}\n"
    "static inline nvmlReturn_t nvmlSystemGetNVMLVersion(char* version, unsigned int length) {\n"
    "  char driver[NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE], text[NVML_SYSTEM_NVML_VERSION_BUFFER_SIZE];\n"
    "  const nvmlReturn_t r = nvmlSystemGetDriverVersion(driver, sizeof driver);\n"
    "  if (r != NVML_SUCCESS) return r;\n"
    "  snprintf(text, sizeof text, \"12.%s\", driver);\n"
    "  return gpuport_nvml_text(version, length, text);\n"
    "}\n"
    "static inline nvmlReturn_t nvmlSystemGetCudaDriverVersion(int* version) {\n"
    "  if (!version) return NVML_ERROR_INVALID_ARGUMENT;\n"
    "  *version = 12060; /* the CUDA release the translation covers, as CUDART_VERSION reads */\n"
    "  return NVML_SUCCESS;\n"
    "}\n"
    "static inline nvmlReturn_t nvmlSystemGetCudaDriverVersion_v2(int* version) { return nvmlSystemGetCudaDriverVersion(version); }\n"
    "static inline nvmlReturn_t nvmlDeviceGetCount_v2(unsigned int* count) {\n"
    "  int n = 0;\n"
    "  if (gpuport_nvml_users == 0) return NVML_ERROR_UNINITIALIZED;\n"
    "  if (!count) return NVML_ERROR_INVALID_ARGUMENT;\n"
    "  if (hipGetDeviceCount(&n) != hipSuccess) n = 0;\n"
    "  *count = (unsigned int)n;\n"
    "  return NVML_SUCCESS;\n"
    "}\n"
    "/* A handle is its device's index plus one. */\n"
    "static inline nvmlReturn_t gpuport_nvml_index(nvmlDevice_t device, int* index) {\n"
    "  unsigned int n = 0;\n"
    "  const nvmlReturn_t r = nvmlDeviceGetCount_v2(&n);\n"
    "  if (r != NVML_SUCCESS) return r;\n"
    "  if ((uintptr_t)device == 0 || (uintptr_t)device > n) return NVML_ERROR_INVALID_ARGUMENT;\n"
    "  *index = (int)((uintptr_t)device - 1);\n"
    "  return NVML_SUCCESS;\n"
    "}\n"
    "static inline nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int index, nvmlDevice_t* device) {\n"
    "  unsigned int n = 0;\n"
    "  const nvmlReturn_t r = nvmlDeviceGetCount_v2(&n);\n"
    "  if (r != NVML_SUCCESS) return r;\n"
    "  if (!device || index >= n) return NVML_ERROR_INVALID_ARGUMENT;\n"
    "  *device = (nvmlDevice_t)(uintptr_t)(index + 1);\n"
    "  return NVML_SUCCESS;\n"
    "}\n"
    "static inline nvmlReturn_t nvmlDeviceGetHandleByPciBusId_v2(const char* bus_id, nvmlDevice_t* device) {\n"
    "  int index = -1;\n"
    "  if (gpuport_nvml_users == 0) return NVML_ERROR_UNINITIALIZED;\n"
    "  if (!bus_id || !device) return NVML_ERROR_INVALID_ARGUMENT;\n"
    "  if (hipDeviceGetByPCIBusId(&index, bus_id) != hipSuccess || index < 0) return NVML_ERROR_NOT_FOUND;\n"
    "  *device = (nvmlDevice_t)(uintptr_t)(index + 1);\n"
    "  return NVML_SUCCESS;\n"
    "}\n"
    "static inline nvmlReturn_t nvmlDeviceGetIndex(nvmlDevice_t device, unsigned int* index) {\n"
    "  int i = 0;\n"
    "  const nvmlReturn_t r = gpuport_nvml_index(device, &i);\n"
    "  if (r != NVML_SUCCESS) return r;\n"
    "  if (!index) return NVML_ERROR_INVALID_ARGUMENT;\n"
    "  *index = (unsigned int)i;\n"
    "  return NVML_SUCCESS;\n"
    "}\n"
    "static inline nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t device, char* name, unsigned int length) {\n"
    "  int i = 0;\n"
    "  char text[NVML_DEVICE_NAME_V2_BUFFER_SIZE] = {0};\n"
    "  const nvmlReturn_t r = gpuport_nvml_index(device, &i);\n"
    "  if (r != NVML_SUCCESS) return r;\n"
    "  if (hipDeviceGetName(text, (int)sizeof text - 1, i) != hipSuccess) return NVML_ERROR_UNKNOWN;\n"
    "  return gpuport_nvml_text(name, length, text);\n"
    "}\n"
    "static inline nvmlReturn_t nvmlDeviceGetUUID(nvmlDevice_t device, char* uuid, unsigned int length) {\n"
    "  int i = 0, k;\n"
    "  hipUUID id;\n"
    "  char text[NVML_DEVICE_UUID_V2_BUFFER_SIZE];\n"
    "  const unsigned char* b = (const unsigned char*)id.bytes;\n"
    "  const nvmlReturn_t r = gpuport_nvml_index(device, &i);\n"
    "  if (r != NVML_SUCCESS) return r;\n"
    "  if (hipDeviceGetUuid(&id, i) != hipSuccess) return NVML_ERROR_NOT_SUPPORTED;\n"
    "  k = snprintf(text, sizeof text, \"GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-\", b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9]);\n"
    "  snprintf(text + k, sizeof text - (size_t)k, \"%02x%02x%02x%02x%02x%02x\", b[10], b[11], b[12], b[13], b[14], b[15]);\n"
    "  return gpuport_nvml_text(uuid, length, text);\n"
    "}\n"
    "static inline nvmlReturn_t nvmlDeviceGetPciInfo_v3(nvmlDevice_t device, nvmlPciInfo_t* pci) {\n"
    "  int i = 0, domain = 0, bus = 0, dev = 0;\n"
    "  const nvmlReturn_t r = gpuport_nvml_index(device, &i);\n"
    "  if (r != NVML_SUCCESS) return r;\n"
    "  if (!pci) return NVML_ERROR_INVALID_ARGUMENT;\n"
    "  if (hipDeviceGetAttribute(&domain, hipDeviceAttributePciDomainID, i) != hipSuccess ||\n"
    "      hipDeviceGetAttribute(&bus, hipDeviceAttributePciBusId, i) != hipSuccess ||\n"
    "      hipDeviceGetAttribute(&dev, hipDeviceAttributePciDeviceId, i) != hipSuccess)\n"
    "    return NVML_ERROR_UNKNOWN;\n"
    "  memset(pci, 0, sizeof *pci);\n"
    "  pci->domain = (unsigned int)domain;\n"
    "  pci->bus = (unsigned int)bus;\n"
    "  pci->device = (unsigned int)dev;\n"
    "  snprintf(pci->busIdLegacy, sizeof pci->busIdLegacy, \"%04x:%02x:%02x.0\", pci->domain & 0xffffu, pci->bus & 0xffu, pci->device & 0xffu);\n"
    "  snprintf(pci->busId, sizeof pci->busId, \"%08x:%02x:%02x.0\", pci->domain, pci->bus & 0xffu, pci->device & 0xffu);\n"
    "  return NVML_SUCCESS;\n"
    "}\n"
    "static inline nvmlReturn_t nvmlDeviceGetMemoryInfo(nvmlDevice_t device, nvmlMemory_t* memory) {\n"
    "  int i = 0, current = 0;\n"
    "  size_t free_bytes = 0, total = 0;\n"
    "  hipError_t status;\n"
    "  const nvmlReturn_t r = gpuport_nvml_index(device, &i);\n"
    "  if (r != NVML_SUCCESS) return r;\n"
    "  if (!memory) return NVML_ERROR_INVALID_ARGUMENT;\n"
    "  if (hipGetDevice(&current) != hipSuccess || hipSetDevice(i) != hipSuccess) return NVML_ERROR_UNKNOWN;\n"
    "  status = hipMemGetInfo(&free_bytes, &total);\n"
    "  (void)hipSetDevice(current);\n"
    "  if (status != hipSuccess) return NVML_ERROR_UNKNOWN;\n"
    "  memory->total = total;\n"
    "  memory->free = free_bytes;\n"
    "  memory->used = total - free_bytes;\n"
    "  return NVML_SUCCESS;\n"
    "}\n"
    "static inline nvmlReturn_t nvmlDeviceGetCudaComputeCapability(nvmlDevice_t device, int* major, int* minor) {\n"
    "  int i = 0;\n"
    "  const nvmlReturn_t r = gpuport_nvml_index(device, &i);\n"
    "  if (r != NVML_SUCCESS) return r;\n"
    "  if (!major || !minor) return NVML_ERROR_INVALID_ARGUMENT;\n"
    "  *major = GPUPORT_CUDA_LEVEL / 100; /* the level the device code is compiled as */\n"
    "  *minor = GPUPORT_CUDA_LEVEL % 100 / 10;\n"
    "  return NVML_SUCCESS;\n"
    "}\n"
    "static inline nvmlReturn_t nvmlDeviceGetMaxClockInfo(nvmlDevice_t device, nvmlClockType_t type, unsigned int* clock) {\n"
    "  int i = 0, khz = 0;\n"
    "  const nvmlReturn_t r = gpuport_nvml_index(device, &i);\n"
    "  if (r != NVML_SUCCESS) return r;\n"
    "  if (!clock) return NVML_ERROR_INVALID_ARGUMENT;\n"
    "  if (type == NVML_CLOCK_VIDEO) return NVML_ERROR_NOT_SUPPORTED;\n"
    "  if (hipDeviceGetAttribute(&khz, type == NVML_CLOCK_MEM ? hipDeviceAttributeMemoryClockRate : hipDeviceAttributeClockRate, i) !=\n"
    "      hipSuccess)\n"
    "    return NVML_ERROR_UNKNOWN;\n"
    "  *clock = (unsigned int)(khz / 1000);\n"
    "  return NVML_SUCCESS;\n"
    "}\n"
    "/* The sensors: ROCm SMI's on AMD, not read here. */\n"
    "static inline nvmlReturn_t gpuport_nvml_sensor(nvmlDevice_t device, const void* out) {\n"
    "  int i = 0;\n"
    "  const nvmlReturn_t r = gpuport_nvml_index(device, &i);\n"
    "  if (r != NVML_SUCCESS) return r;\n"
    "  return out ? NVML_ERROR_NOT_SUPPORTED : NVML_ERROR_INVALID_ARGUMENT;\n"
    "}\n"
    "static inline nvmlReturn_t nvmlDeviceGetTemperature(nvmlDevice_t device, nvmlTemperatureSensors_t sensor, unsigned int* temp) {\n"
    "  (void)sensor;\n"
    "  return gpuport_nvml_sensor(device, temp);\n"
    "}\n"
    "static inline nvmlReturn_t nvmlDeviceGetPowerUsage(nvmlDevice_t device, unsigned int* power) { return gpuport_nvml_sensor(device, power); }\n"
    "static inline nvmlReturn_t nvmlDeviceGetUtilizationRates(nvmlDevice_t device, nvmlUtilization_t* u) { return gpuport_nvml_sensor(device, u); }\n"
    "static inline nvmlReturn_t nvmlDeviceGetClockInfo(nvmlDevice_t device, nvmlClockType_t type, unsigned int* clock) {\n"
    "  (void)type;\n"
    "  return gpuport_nvml_sensor(device, clock);\n"
    "}\n"
    "#define nvmlInit nvmlInit_v2\n"
    "#define nvmlDeviceGetCount nvmlDeviceGetCount_v2\n"
    "#define nvmlDeviceGetHandleByIndex nvmlDeviceGetHandleByIndex_v2\n"
    "#define nvmlDeviceGetHandleByPciBusId nvmlDeviceGetHandleByPciBusId_v2\n"
    "#define nvmlDeviceGetPciInfo nvmlDeviceGetPciInfo_v3\n"
    "#endif\n"
    "#endif\n";
constexpr std::array<std::string_view, 1> kNvmlHeaders = {"nvml.h"};
static_assert(kMappedCudaRelease == 12060, "kNvml's nvmlSystemGetCudaDriverVersion spells the release out");

constexpr std::array<Shim, 25> kShims = {{
    {"GPUPORT_NVIDIA_WARP_VOTES", kVotes, kVoteTriggers},
    {"GPUPORT_AMD_ACTIVEMASK", kActiveMask, kActiveMaskTriggers},
    {"GPUPORT_NVIDIA_HOST_FUNC", kHostFunc, kHostFuncTriggers},
    {"GPUPORT_AMD_HOST_FUNC", kHostFuncAmd, kHostFuncTriggers},
    {"GPUPORT_AMD_ATOMIC_INC_DEC", kAtomicIncDec, kAtomicIncDecTriggers},
    {"GPUPORT_WAVE64_SHFL", kWave64Shuffles, kWave64ShuffleTriggers},
    {"GPUPORT_MATCH", kMatch, kMatchTriggers},
    {"GPUPORT_REDUCE", kReduce, kReduceTriggers},
    {"GPUPORT_CG_REDUCE", kCgReduce, {}, kCgReduceHeaders},
    {"GPUPORT_SURF_READ", kSurfRead, kSurfReadTriggers},
    {"GPUPORT_SURF_MODE_ARG", kSurfMode, kSurfModeTriggers},
    {"GPUPORT_OCCUPANCY", kOccupancy, kOccupancyTriggers},
    {"GPUPORT_AMD_ATOMIC_MINMAX_LL", kAtomicMinMaxLongLong, kAtomicMinMaxTriggers},
    {"GPUPORT_STORE_HINTS", kStoreHints, kStoreHintsTriggers},
    {"GPUPORT_NVTX", kNvtx, {}, kNvtxHeaders},
    {"GPUPORT_CUDART_VERSION", kCudartVersion, kCudartVersionTriggers},
    {"GPUPORT_SIMD_VIDEO", kSimdVideo, kSimdVideoTriggers},
    {"GPUPORT_CUDA_ARCH", kCudaArch, {}},
    {"GPUPORT_HALF_MINMAX", kHalfMinMax, kHalfMinMaxTriggers},
    {"GPUPORT_MEMCPY3D_PEER", kMemcpy3DPeer, kMemcpy3DPeerTriggers},
    {"GPUPORT_DEVICEPTR", kDeviceptr, kDeviceptrTriggers, {}, kDeviceptrStandsFor},
    {"GPUPORT_ROCBLAS", kRocblas, {}, {}, {}, kRocblasPrefixes},
    {"GPUPORT_HIPBLAS_MATH_MODE", kHipblasMathMode, kHipblasMathModeTriggers},
    {"GPUPORT_DEVICE_CC", kDeviceComputeCapability, kDeviceComputeCapabilityTriggers, {}, kDeviceComputeCapabilityStandsFor},
    {"GPUPORT_NVML", kNvml, {}, kNvmlHeaders},
}};

}  // namespace

std::span<const Shim> shims() { return kShims; }

// Asked for every translated type and function: the names are indexed once.
std::string_view shim_name_for(std::string_view hip_name) {
  static const auto index = [] {
    std::unordered_map<std::string_view, std::string_view> names;
    for (const auto& shim : kShims)
      for (std::size_t k = 0; k < shim.stands_for.size() && k < shim.triggers.size(); ++k) names.emplace(shim.stands_for[k], shim.triggers[k]);
    return names;
  }();
  const auto it = index.find(hip_name);
  return it == index.end() ? std::string_view() : it->second;
}

std::string cuda_level_definition(int level) {
  return fmt::format("#if !defined(GPUPORT_CUDA_LEVEL)\n#define GPUPORT_CUDA_LEVEL {} /* added by gpuport: the CUDA architecture "
                     "gfx1100's device code stands in for */\n#endif\n",
                     level);
}

namespace {

// Bits of the shims whose list (triggers or headers) holds `name`: one per platform may
// answer the same name (hipLaunchHostFunc).
// Asked for every translated call and constant: the names are indexed once.
std::uint32_t shims_listing(std::string_view name, std::span<const std::string_view> Shim::*list) {
  static const auto index = [] {
    std::array<std::unordered_map<std::string_view, std::uint32_t>, 2> by_list;  // triggers, headers
    for (std::size_t i = 0; i < kShims.size(); ++i) {
      for (auto n : kShims[i].triggers) by_list[0][n] |= 1u << i;
      for (auto n : kShims[i].headers) by_list[1][n] |= 1u << i;
    }
    return by_list;
  }();
  const auto& names = index[list == &Shim::triggers ? 0 : 1];
  const auto it = names.find(name);
  return it == names.end() ? 0 : it->second;
}

}  // namespace

std::uint32_t shim_for_call(std::string_view hip_name) { return shims_listing(hip_name, &Shim::triggers); }

// Asked for every name the tables do not hold: the prefixes are listed once.
std::uint32_t shim_for_library_name(std::string_view name) {
  static const auto prefixes = [] {
    std::vector<std::pair<std::string_view, std::uint32_t>> out;
    for (std::size_t i = 0; i < kShims.size(); ++i)
      for (auto prefix : kShims[i].prefixes) out.emplace_back(prefix, 1u << i);
    return out;
  }();
  for (const auto& [prefix, bit] : prefixes)
    if (name.size() > prefix.size() && name.starts_with(prefix)) return bit;
  return 0;
}

std::uint32_t shim_for_header(std::string_view cuda_path) { return shims_listing(cuda_path, &Shim::headers); }

std::string_view value_surface_read(std::string_view cuda_name) {
  for (auto t : kSurfReadTriggers)
    if (t.substr(8) == cuda_name) return t;  // "gpuport_" + the CUDA name
  return {};
}

std::uint32_t shim_for_guard(std::string_view macro) {
  for (std::size_t i = 0; i < kShims.size(); ++i)
    if (kShims[i].guard == macro) return 1u << i;
  return 0;
}

}  // namespace gpuport::source
