// hipRTC of the HIP runtime API (HIP 5.2 and 6.4 export it from libamdhip64), over the core's
// programs and their compilation (core/rtc.cc, which says what compiling does here).
#include "emu/runtime/core/rtc.h"

#include <cstring>

using namespace gpuport::emu::hip;

const char* hiprtcGetErrorString(hiprtcResult result) {
  switch (result) {
#define NAME(x) \
  case x: return #x;
    NAME(HIPRTC_SUCCESS) NAME(HIPRTC_ERROR_OUT_OF_MEMORY) NAME(HIPRTC_ERROR_PROGRAM_CREATION_FAILURE)
    NAME(HIPRTC_ERROR_INVALID_INPUT) NAME(HIPRTC_ERROR_INVALID_PROGRAM) NAME(HIPRTC_ERROR_INVALID_OPTION)
    NAME(HIPRTC_ERROR_COMPILATION) NAME(HIPRTC_ERROR_BUILTIN_OPERATION_FAILURE)
    NAME(HIPRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION) NAME(HIPRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION)
    NAME(HIPRTC_ERROR_NAME_EXPRESSION_NOT_VALID) NAME(HIPRTC_ERROR_INTERNAL_ERROR)
#if HIP_VERSION_MAJOR >= 6
    NAME(HIPRTC_ERROR_LINKING)
#endif
#undef NAME
  }
  return "invalid hiprtcResult";
}

hiprtcResult hiprtcVersion(int* major, int* minor) {
  if (!major || !minor) return HIPRTC_ERROR_INVALID_INPUT;
  // What HIP 5.2's hipRTC reports (its own numbering, not HIP's version).
  *major = 9;
  *minor = 0;
  return HIPRTC_SUCCESS;
}

hiprtcResult hiprtcCreateProgram(hiprtcProgram* prog, const char* src, const char* name, int count, const char** headers,
                                 const char** include_names) {
  if (!prog) return HIPRTC_ERROR_INVALID_PROGRAM;
  if (!src || !*src || count < 0 || (count > 0 && (!headers || !include_names))) return HIPRTC_ERROR_INVALID_INPUT;
  auto p = std::make_unique<_hiprtcProgram>();
  p->source = src;
  p->name = name && *name ? name : "CompileSource";  // HIP 5.2's name for the source of an unnamed program
  for (int i = 0; i < count; ++i) {
    if (!headers[i] || !*headers[i] || !include_names[i] || !valid_include_name(include_names[i])) return HIPRTC_ERROR_INVALID_INPUT;
    p->headers.emplace_back(include_names[i], headers[i]);
  }
  *prog = add_program(std::move(p));
  return HIPRTC_SUCCESS;
}

hiprtcResult hiprtcDestroyProgram(hiprtcProgram* prog) {
  if (!prog) return HIPRTC_ERROR_INVALID_INPUT;
  if (!destroy_program(*prog)) return HIPRTC_ERROR_INVALID_PROGRAM;
  *prog = nullptr;
  return HIPRTC_SUCCESS;
}

hiprtcResult hiprtcAddNameExpression(hiprtcProgram prog, const char* name_expression) {
  _hiprtcProgram* p = live_program(prog);
  if (!p) return HIPRTC_ERROR_INVALID_PROGRAM;
  if (!name_expression || !*name_expression) return HIPRTC_ERROR_INVALID_INPUT;
  std::lock_guard lock(p->mutex);
  if (p->compiled) return HIPRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION;
  if (std::find(p->name_expressions.begin(), p->name_expressions.end(), name_expression) == p->name_expressions.end())
    p->name_expressions.emplace_back(name_expression);
  return HIPRTC_SUCCESS;
}

hiprtcResult hiprtcCompileProgram(hiprtcProgram prog, int count, const char** options) {
  _hiprtcProgram* p = live_program(prog);
  if (!p) return HIPRTC_ERROR_INVALID_PROGRAM;
  if (count < 0 || (count > 0 && !options)) return HIPRTC_ERROR_INVALID_INPUT;
  std::vector<std::string> list;
  for (int i = 0; i < count; ++i) {
    if (!options[i]) return HIPRTC_ERROR_INVALID_INPUT;
    list.emplace_back(options[i]);
  }
  std::lock_guard lock(p->mutex);
  return compile(*p, list);
}

hiprtcResult hiprtcGetLoweredName(hiprtcProgram prog, const char* name_expression, const char** lowered_name) {
  _hiprtcProgram* p = live_program(prog);
  if (!p) return HIPRTC_ERROR_INVALID_PROGRAM;
  if (!name_expression || !lowered_name) return HIPRTC_ERROR_INVALID_INPUT;
  std::lock_guard lock(p->mutex);
  if (!p->compiled) return HIPRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION;
  auto it = p->lowered.find(name_expression);
  if (it == p->lowered.end()) return HIPRTC_ERROR_NAME_EXPRESSION_NOT_VALID;
  *lowered_name = it->second.c_str();
  return HIPRTC_SUCCESS;
}

hiprtcResult hiprtcGetProgramLogSize(hiprtcProgram prog, size_t* size) {
  _hiprtcProgram* p = live_program(prog);
  if (!p) return HIPRTC_ERROR_INVALID_PROGRAM;
  if (!size) return HIPRTC_ERROR_INVALID_INPUT;
  std::lock_guard lock(p->mutex);
  *size = p->log.size() + 1;  // with the terminating NUL hiprtcGetProgramLog writes
  return HIPRTC_SUCCESS;
}

hiprtcResult hiprtcGetProgramLog(hiprtcProgram prog, char* log) {
  _hiprtcProgram* p = live_program(prog);
  if (!p) return HIPRTC_ERROR_INVALID_PROGRAM;
  if (!log) return HIPRTC_ERROR_INVALID_INPUT;
  std::lock_guard lock(p->mutex);
  std::memcpy(log, p->log.c_str(), p->log.size() + 1);
  return HIPRTC_SUCCESS;
}

hiprtcResult hiprtcGetCodeSize(hiprtcProgram prog, size_t* size) {
  _hiprtcProgram* p = live_program(prog);
  if (!p) return HIPRTC_ERROR_INVALID_PROGRAM;
  if (!size) return HIPRTC_ERROR_INVALID_INPUT;
  std::lock_guard lock(p->mutex);
  *size = p->code.size();  // 0 until a compilation succeeds, as in HIP 5.2
  return HIPRTC_SUCCESS;
}

hiprtcResult hiprtcGetCode(hiprtcProgram prog, char* code) {
  _hiprtcProgram* p = live_program(prog);
  if (!p) return HIPRTC_ERROR_INVALID_PROGRAM;
  if (!code) return HIPRTC_ERROR_INVALID_INPUT;
  std::lock_guard lock(p->mutex);
  std::memcpy(code, p->code.data(), p->code.size());
  return HIPRTC_SUCCESS;
}
