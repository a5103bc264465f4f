// hipRTC's programs in the runtime's core (core/rtc.cc): the live programs, and their compilation
// by the machine's clang-19 into gfx1100 code objects.
#pragma once

#include "emu/runtime/core/runtime.h"  // first: it selects HIP's AMD platform

#include <hip/hiprtc.h>

struct _hiprtcProgram {
  std::mutex mutex;
  std::string source, name;
  std::vector<std::pair<std::string, std::string>> headers;  // include name, text
  std::vector<std::string> name_expressions;                 // in the order they were added
  bool compiled = false;                                     // a compilation succeeded
  std::map<std::string, std::string> lowered;                // name expression -> symbol
  std::string log;
  std::string code;  // the gfx1100 code object (ELF)
};

namespace gpuport::emu::hip {

// The program a handle names, or null. Programs are only destroyed by destroy_program.
_hiprtcProgram* live_program(hiprtcProgram handle);
// Registers a new program and hands out its handle; destroys one (false: it names none).
hiprtcProgram add_program(std::unique_ptr<_hiprtcProgram> program);
bool destroy_program(hiprtcProgram handle);
// A header's include name must stay inside the compilation's folder.
bool valid_include_name(std::string_view name);
// Compiles a program with hipRTC's options (its lock held): the log, the code object and the
// lowered names are the program's; what fails is a compile error in the log.
hiprtcResult compile(_hiprtcProgram& p, const std::vector<std::string>& options);

}  // namespace gpuport::emu::hip
