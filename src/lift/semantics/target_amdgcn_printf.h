// CUDA's device printf and failed assert on gfx1100 (the vprintf and assert_fail hooks of sass.h):
// the argument buffer nvcc packs for vprintf is walked by the format string and re-sent through
// the device library's hostcall printf (ockl's __ockl_printf_*, the path clang's HIP printf takes;
// the semantics bitcode is linked with ockl at build time). Included by target_amdgcn_common.h.
#pragma once

#include "lift/semantics/printf_walk.h"
#include "lift/semantics/sass.h"

// Convergent, as the library defines them (a wave fills one hostcall packet together), so that the
// hooks calling them stay convergent before the library is linked in.
extern "C" sass_u64 __ockl_printf_begin(sass_u64 version) SASS_CONVERGENT;
extern "C" sass_u64 __ockl_printf_append_args(sass_u64 message, sass_u32 count, sass_u64 a0, sass_u64 a1, sass_u64 a2,
                                               sass_u64 a3, sass_u64 a4, sass_u64 a5, sass_u64 a6, sass_u32 is_last) SASS_CONVERGENT;
extern "C" sass_u64 __ockl_printf_append_string_n(sass_u64 message, const char* text, sass_u64 length, sass_u32 is_last)
    SASS_CONVERGENT;

SASS_HOOK(sass_u32, vprintf)(const char* format, const char* arguments) {
  if (format == nullptr) return static_cast<sass_u32>(-1);
  // Counted first: the message's last piece is marked as such.
  const sass_u32 total = gpuport_printf::walk_arguments(format, arguments, [](sass_u64, bool) {});
  sass_u64 message = __ockl_printf_begin(0);
  message = __ockl_printf_append_string_n(message, format, gpuport_printf::string_length(format) + 1, total == 0 ? 1u : 0u);
  sass_u32 sent = 0;
  gpuport_printf::walk_arguments(format, arguments, [&](sass_u64 value, bool is_string) {
    const sass_u32 last = ++sent == total ? 1u : 0u;
    if (!is_string) {
      message = __ockl_printf_append_args(message, 1, value, 0, 0, 0, 0, 0, 0, last);
      return;
    }
    const char* s = reinterpret_cast<const char*>(value);
    if (s == nullptr) s = "(null)";
    message = __ockl_printf_append_string_n(message, s, gpuport_printf::string_length(s) + 1, last);
  });
  return total;
}

SASS_HOOK(void, assert_fail)(const char* message, const char* file, sass_u32 line, const char* function) {
  // CUDA's text for a failed device assert.
  const char* format = "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.\n";
  sass_u64 m = __ockl_printf_begin(0);
  m = __ockl_printf_append_string_n(m, format, gpuport_printf::string_length(format) + 1, 0);
  m = __ockl_printf_append_string_n(m, file ? file : "?", gpuport_printf::string_length(file ? file : "?") + 1, 0);
  m = __ockl_printf_append_args(m, 1, line, 0, 0, 0, 0, 0, 0, 0);
  m = __ockl_printf_append_string_n(m, function ? function : "?", gpuport_printf::string_length(function ? function : "?") + 1, 0);
  m = __ockl_printf_append_args(m, 6, gpuport_hook_block_id(0), gpuport_hook_block_id(1), gpuport_hook_block_id(2),
                                gpuport_hook_thread_id(0), gpuport_hook_thread_id(1), gpuport_hook_thread_id(2), 0, 0);
  __ockl_printf_append_string_n(m, message ? message : "?", gpuport_printf::string_length(message ? message : "?") + 1, 1);
  __builtin_trap();
}
