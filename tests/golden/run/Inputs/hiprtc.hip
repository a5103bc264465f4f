// hipRTC in the emulator's HIP runtime: a templated kernel compiled at run time with a named
// header (which includes another, in a subfolder) and -D options, name expressions lowered and
// checked against the names this program's own compilation gives the same kernels and against
// libstdc++'s demangler, the code object loaded with hipModuleLoadData and launched (results
// against CPU references), the wave size following --wave64 or -mwavefrontsize64, a module's
// texture reference bound through hipModuleGetTexRef, a compile error whose log names the
// program and the line, and the errors of hiprtc.h for misuse.
#include <cxxabi.h>
#include <hip/hip_runtime.h>
#include <hip/hiprtc.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "hip_check.h"

// The same template as the runtime-compiled source: its mangled name comes from this program's
// own compilation (hipKernelNameRefByPtr), independently of hipRTC.
template <typename T, int N>
__global__ void scale_add(T* out, const T* in, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * static_cast<T>(N);
}

static const char* kSource = R"(#include "params.h"
template <typename T, int N>
__global__ void scale_add(T* out, const T* in, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * static_cast<T>(N) + static_cast<T>(OFFSET) + static_cast<T>(BIAS);
}
extern "C" __global__ void wave_size(int* out) { out[threadIdx.x] = warpSize + 1000 * RTC_MARK; }
__device__ int rtc_counter = 17;
namespace shapes {
__global__ void fill(int* p, int v) { p[threadIdx.x] = v + static_cast<int>(threadIdx.x); }
}
#ifdef __HIPCC_RTC__
__device__ int compiled_by_hiprtc = 1;
#endif
texture<float, hipTextureType2D, hipReadModeElementType> rtc_texture;
extern "C" __global__ void read_texture(float* out, int width, int height) {
  const int x = threadIdx.x, y = blockIdx.x;
  if (x < width && y < height) out[y * width + x] = tex2D(rtc_texture, x + 0.5f, y + 0.5f);
}
)";
static const char* kParams = "#include \"detail/offset.h\"\n#define OFFSET OFFSET_FROM_DETAIL\n";
static const char* kOffset = "#define OFFSET_FROM_DETAIL 2\n";

static std::string demangled(const char* name) {
  int status = 0;
  char* d = abi::__cxa_demangle(name, nullptr, nullptr, &status);
  std::string s = status == 0 && d ? d : name;
  std::free(d);
  return s;
}

static std::string program_log(hiprtcProgram p) {
  size_t size = 0;
  if (hiprtcGetProgramLogSize(p, &size) != HIPRTC_SUCCESS || size == 0) return {};
  std::string log(size, '#');
  hiprtcGetProgramLog(p, &log[0]);
  check(log.back() == '\0' && std::strlen(log.c_str()) == size - 1, "the log size counts the log and its NUL", __LINE__);
  log.pop_back();
  return log;
}

#define EXPECT_RTC(call, want) check_rtc((call), (want), #call, __LINE__)
static bool check_rtc(hiprtcResult got, hiprtcResult want, const char* call, int line) {
  const std::string what = std::string(call) + " -> " + hiprtcGetErrorString(want);
  const bool ok = check(got == want, what.c_str(), line);
  if (!ok) std::printf("     (got %s)\n", hiprtcGetErrorString(got));
  return ok;
}

int main(int argc, char** argv) {
  const bool force_wave64 = argc > 1 && std::strcmp(argv[1], "force-wave64") == 0;
  int major = -1, minor = -1;
  EXPECT_RTC(hiprtcVersion(&major, &minor), HIPRTC_SUCCESS);
  EXPECT(major == 9 && minor == 0);  // HIP 5.2's hipRTC reports 9.0
  EXPECT_RTC(hiprtcVersion(nullptr, &minor), HIPRTC_ERROR_INVALID_INPUT);
  EXPECT(std::strcmp(hiprtcGetErrorString(HIPRTC_ERROR_COMPILATION), "HIPRTC_ERROR_COMPILATION") == 0);

  // ---- a program with named headers, options and name expressions ----
  hiprtcProgram prog = nullptr;
  const char* headers[] = {kParams, kOffset};
  const char* names[] = {"params.h", "detail/offset.h"};
  EXPECT_RTC(hiprtcCreateProgram(&prog, kSource, "scale.hip", 2, headers, names), HIPRTC_SUCCESS);
  const char* expressions[] = {"scale_add<float, 3>", "scale_add<int,5>", "&rtc_counter", "shapes::fill", "wave_size"};
  for (const char* e : expressions) EXPECT_RTC(hiprtcAddNameExpression(prog, e), HIPRTC_SUCCESS);
  const char* lowered = nullptr;
  EXPECT_RTC(hiprtcGetLoweredName(prog, "scale_add<float, 3>", &lowered), HIPRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION);
  std::vector<const char*> options = {"-DBIAS=3", "--std=c++17", "-O2", "-D", "RTC_MARK=7", "--gpu-architecture=gfx1100"};
  if (force_wave64) options.push_back("-mwavefrontsize64");
  EXPECT_RTC(hiprtcCompileProgram(prog, static_cast<int>(options.size()), options.data()), HIPRTC_SUCCESS);
  const std::string build_log = program_log(prog);
  std::printf("build log: %zu bytes\n", build_log.size());
  EXPECT_RTC(hiprtcAddNameExpression(prog, "scale_add<double, 1>"), HIPRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION);

  const char *float_kernel = nullptr, *int_kernel = nullptr, *counter = nullptr, *fill = nullptr, *wave = nullptr;
  EXPECT_RTC(hiprtcGetLoweredName(prog, "scale_add<float, 3>", &float_kernel), HIPRTC_SUCCESS);
  EXPECT_RTC(hiprtcGetLoweredName(prog, "scale_add<int,5>", &int_kernel), HIPRTC_SUCCESS);
  EXPECT_RTC(hiprtcGetLoweredName(prog, "&rtc_counter", &counter), HIPRTC_SUCCESS);
  EXPECT_RTC(hiprtcGetLoweredName(prog, "shapes::fill", &fill), HIPRTC_SUCCESS);
  EXPECT_RTC(hiprtcGetLoweredName(prog, "wave_size", &wave), HIPRTC_SUCCESS);
  EXPECT_RTC(hiprtcGetLoweredName(prog, "scale_add<float,3>", &lowered), HIPRTC_ERROR_NAME_EXPRESSION_NOT_VALID);
  EXPECT_RTC(hiprtcGetLoweredName(prog, nullptr, &lowered), HIPRTC_ERROR_INVALID_INPUT);
  if (!float_kernel || !int_kernel || !counter || !fill || !wave) return finish("hiprtc");
  std::printf("lowered: %s %s %s %s %s\n", float_kernel, int_kernel, counter, fill, wave);
  EXPECT(std::strcmp(float_kernel, hipKernelNameRefByPtr(reinterpret_cast<const void*>(scale_add<float, 3>), nullptr)) == 0);
  EXPECT(std::strcmp(int_kernel, hipKernelNameRefByPtr(reinterpret_cast<const void*>(scale_add<int, 5>), nullptr)) == 0);
  EXPECT(demangled(float_kernel) == "void scale_add<float, 3>(float*, float const*, int)");
  EXPECT(demangled(int_kernel) == "void scale_add<int, 5>(int*, int const*, int)");
  EXPECT(demangled(fill) == "shapes::fill(int*, int)");
  EXPECT(std::strcmp(counter, "rtc_counter") == 0);
  EXPECT(std::strcmp(wave, "wave_size") == 0);

  size_t code_size = 0;
  EXPECT_RTC(hiprtcGetCodeSize(prog, &code_size), HIPRTC_SUCCESS);
  std::vector<char> code(code_size);
  EXPECT_RTC(hiprtcGetCode(prog, code.data()), HIPRTC_SUCCESS);
  EXPECT(code_size > 4 && std::memcmp(code.data(), "\x7f" "ELF", 4) == 0);

  // ---- load and launch ----
  hipModule_t module;
  EXPECT_OK(hipModuleLoadData(&module, code.data()));
  hipFunction_t f_float, f_int, f_fill, f_wave, f_texture;
  EXPECT_OK(hipModuleGetFunction(&f_float, module, float_kernel));
  EXPECT_OK(hipModuleGetFunction(&f_int, module, int_kernel));
  EXPECT_OK(hipModuleGetFunction(&f_fill, module, fill));
  EXPECT_OK(hipModuleGetFunction(&f_wave, module, wave));
  EXPECT_OK(hipModuleGetFunction(&f_texture, module, "read_texture"));
  hipDeviceptr_t global;
  size_t bytes = 0;
  int value = 0;
  EXPECT_OK(hipModuleGetGlobal(&global, &bytes, module, counter));
  EXPECT_OK(hipMemcpy(&value, global, sizeof value, hipMemcpyDeviceToHost));
  EXPECT(bytes == sizeof(int) && value == 17);
  EXPECT_OK(hipModuleGetGlobal(&global, &bytes, module, "compiled_by_hiprtc"));

  const int n = 1000;  // a partial last block of 256
  std::vector<float> xf(n), yf(n);
  std::vector<int> xi(n), yi(n);
  for (int i = 0; i < n; ++i) xf[i] = 0.25f * i - 40.0f, xi[i] = 3 * i - 700;
  float *dxf, *dyf;
  int *dxi, *dyi;
  EXPECT_OK(hipMalloc(&dxf, n * sizeof(float)));
  EXPECT_OK(hipMalloc(&dyf, n * sizeof(float)));
  EXPECT_OK(hipMalloc(&dxi, n * sizeof(int)));
  EXPECT_OK(hipMalloc(&dyi, n * sizeof(int)));
  EXPECT_OK(hipMemcpy(dxf, xf.data(), n * sizeof(float), hipMemcpyHostToDevice));
  EXPECT_OK(hipMemcpy(dxi, xi.data(), n * sizeof(int), hipMemcpyHostToDevice));
  int count = n;
  void* float_args[] = {&dyf, &dxf, &count};
  void* int_args[] = {&dyi, &dxi, &count};
  EXPECT_OK(hipModuleLaunchKernel(f_float, (n + 255) / 256, 1, 1, 256, 1, 1, 0, nullptr, float_args, nullptr));
  EXPECT_OK(hipModuleLaunchKernel(f_int, (n + 255) / 256, 1, 1, 256, 1, 1, 0, nullptr, int_args, nullptr));
  EXPECT_OK(hipMemcpy(yf.data(), dyf, n * sizeof(float), hipMemcpyDeviceToHost));
  EXPECT_OK(hipMemcpy(yi.data(), dyi, n * sizeof(int), hipMemcpyDeviceToHost));
  int float_wrong = 0, int_wrong = 0;
  for (int i = 0; i < n; ++i) {
    float_wrong += yf[i] != xf[i] * 3.0f + 2.0f + 3.0f;  // N = 3, OFFSET = 2 (the headers), BIAS = 3 (-D)
    int_wrong += yi[i] != xi[i] * 5 + 2 + 3;
  }
  EXPECT(float_wrong == 0);
  EXPECT(int_wrong == 0);

  int* dfill;
  EXPECT_OK(hipMalloc(&dfill, 64 * sizeof(int)));
  int base = 500;
  void* fill_args[] = {&dfill, &base};
  EXPECT_OK(hipModuleLaunchKernel(f_fill, 1, 1, 1, 64, 1, 1, 0, nullptr, fill_args, nullptr));
  std::vector<int> filled(64);
  EXPECT_OK(hipMemcpy(filled.data(), dfill, 64 * sizeof(int), hipMemcpyDeviceToHost));
  EXPECT(filled[0] == 500 && filled[63] == 563);

  // The kernel's wave size: the device's (32, or 64 under --wave64) unless the options ask for 64.
  hipDeviceProp_t props;
  EXPECT_OK(hipGetDeviceProperties(&props, 0));
  const int want_wave = force_wave64 ? 64 : props.warpSize;
  void* wave_args[] = {&dfill};
  EXPECT_OK(hipModuleLaunchKernel(f_wave, 1, 1, 1, 64, 1, 1, 0, nullptr, wave_args, nullptr));
  EXPECT_OK(hipMemcpy(filled.data(), dfill, 64 * sizeof(int), hipMemcpyDeviceToHost));
  std::printf("kernel warpSize %d\n", filled[0] - 7000);
  EXPECT(filled[0] == want_wave + 7000 && filled[63] == want_wave + 7000);

  // ---- the module's texture reference ----
  const int width = 8, height = 4;
  std::vector<float> texels(width * height), read(width * height);
  for (int i = 0; i < width * height; ++i) texels[i] = 1.5f * i - 7.0f;
  hipArray_t array;
  hipChannelFormatDesc desc = hipCreateChannelDesc<float>();
  EXPECT_OK(hipMallocArray(&array, &desc, width, height));
  EXPECT_OK(hipMemcpy2DToArray(array, 0, 0, texels.data(), width * sizeof(float), width * sizeof(float), height, hipMemcpyHostToDevice));
  textureReference* ref = nullptr;
  EXPECT_ERROR(hipModuleGetTexRef(&ref, module, "no_such_texture"), hipErrorNotFound);
  EXPECT_ERROR(hipModuleGetTexRef(&ref, module, counter), hipErrorNotFound);  // a global, not a texture
  EXPECT_OK(hipModuleGetTexRef(&ref, module, "rtc_texture"));
  EXPECT_OK(hipTexRefSetFormat(ref, HIP_AD_FORMAT_FLOAT, 1));
  EXPECT_OK(hipTexRefSetFlags(ref, HIP_TRSF_READ_AS_INTEGER));
  EXPECT_OK(hipTexRefSetFilterMode(ref, hipFilterModePoint));
  EXPECT_OK(hipTexRefSetAddressMode(ref, 0, hipAddressModeClamp));
  EXPECT_OK(hipTexRefSetArray(ref, array, HIP_TRSA_OVERRIDE_FORMAT));
  float* dread;
  EXPECT_OK(hipMalloc(&dread, width * height * sizeof(float)));
  int w = width, h = height;
  void* texture_args[] = {&dread, &w, &h};
  EXPECT_OK(hipModuleLaunchKernel(f_texture, height, 1, 1, width, 1, 1, 0, nullptr, texture_args, nullptr));
  EXPECT_OK(hipMemcpy(read.data(), dread, width * height * sizeof(float), hipMemcpyDeviceToHost));
  EXPECT(read == texels);
  EXPECT_OK(hipUnbindTexture(ref));
  EXPECT_OK(hipModuleUnload(module));
  EXPECT_RTC(hiprtcDestroyProgram(&prog), HIPRTC_SUCCESS);
  EXPECT(prog == nullptr);

  // ---- a compile error: the log names the program and the line ----
  hiprtcProgram bad;
  const char* bad_source = "__global__ void k(int* p) {\n  p[0] = 1;\n\n  p[1] = undeclared_value;\n}\n";
  EXPECT_RTC(hiprtcCreateProgram(&bad, bad_source, "broken.hip", 0, nullptr, nullptr), HIPRTC_SUCCESS);
  EXPECT_RTC(hiprtcAddNameExpression(bad, "k"), HIPRTC_SUCCESS);
  EXPECT_RTC(hiprtcCompileProgram(bad, 0, nullptr), HIPRTC_ERROR_COMPILATION);
  const std::string bad_log = program_log(bad);
  std::printf("error log: %s", bad_log.c_str());
  EXPECT(bad_log.find("broken.hip:4:") != std::string::npos && bad_log.find("undeclared_value") != std::string::npos);
  EXPECT_RTC(hiprtcGetLoweredName(bad, "k", &lowered), HIPRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION);
  EXPECT_RTC(hiprtcGetCodeSize(bad, &code_size), HIPRTC_SUCCESS);
  EXPECT(code_size == 0);

  // ---- options: an unknown one is a compile error in the log, -fgpu-rdc is refused ----
  const char* unknown[] = {"--no-such-option"};
  EXPECT_RTC(hiprtcCompileProgram(bad, 1, unknown), HIPRTC_ERROR_COMPILATION);
  EXPECT(program_log(bad).find("--no-such-option") != std::string::npos);
  const char* rdc[] = {"-fgpu-rdc"};
  EXPECT_RTC(hiprtcCompileProgram(bad, 1, rdc), HIPRTC_ERROR_INVALID_OPTION);
  EXPECT(program_log(bad).find("-fgpu-rdc") != std::string::npos);
  EXPECT_RTC(hiprtcCompileProgram(bad, 1, nullptr), HIPRTC_ERROR_INVALID_INPUT);
  EXPECT_RTC(hiprtcDestroyProgram(&bad), HIPRTC_SUCCESS);

  // ---- misuse ----
  hiprtcProgram p2;
  EXPECT_RTC(hiprtcCreateProgram(nullptr, kSource, "x", 0, nullptr, nullptr), HIPRTC_ERROR_INVALID_PROGRAM);
  EXPECT_RTC(hiprtcCreateProgram(&p2, nullptr, "x", 0, nullptr, nullptr), HIPRTC_ERROR_INVALID_INPUT);
  EXPECT_RTC(hiprtcCreateProgram(&p2, kSource, "x", -1, nullptr, nullptr), HIPRTC_ERROR_INVALID_INPUT);
  EXPECT_RTC(hiprtcCreateProgram(&p2, kSource, "x", 1, nullptr, nullptr), HIPRTC_ERROR_INVALID_INPUT);
  const char* escaping[] = {"../outside.h"};
  EXPECT_RTC(hiprtcCreateProgram(&p2, kSource, "x", 1, headers, escaping), HIPRTC_ERROR_INVALID_INPUT);
  hiprtcProgram stale = reinterpret_cast<hiprtcProgram>(&major);
  EXPECT_RTC(hiprtcCompileProgram(stale, 0, nullptr), HIPRTC_ERROR_INVALID_PROGRAM);
  EXPECT_RTC(hiprtcGetCodeSize(stale, &code_size), HIPRTC_ERROR_INVALID_PROGRAM);
  EXPECT_RTC(hiprtcDestroyProgram(&stale), HIPRTC_ERROR_INVALID_PROGRAM);
  EXPECT_RTC(hiprtcDestroyProgram(nullptr), HIPRTC_ERROR_INVALID_INPUT);
  return finish("hiprtc");
}
