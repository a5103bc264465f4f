// CUDA's device printf and failed assert on gfx1100 (the vprintf and assert_fail hooks of sass.h):
// the argument buffer nvcc packs for vprintf is walked by the format string and re-sent through
// the device library's hostcall printf (ockl's __ockl_printf_*, the path clang's HIP printf takes;
// the semantics bitcode is linked with ockl at build time). Included by target_amdgcn_common.h.
#pragma once

#include "lift/semantics/sass.h"

// Convergent, as the library defines them (a wave fills one hostcall packet together), so that the
// hooks calling them stay convergent before the library is linked in.
extern "C" sass_u64 __ockl_printf_begin(sass_u64 version) SASS_CONVERGENT;
extern "C" sass_u64 __ockl_printf_append_args(sass_u64 message, sass_u32 count, sass_u64 a0, sass_u64 a1, sass_u64 a2,
                                               sass_u64 a3, sass_u64 a4, sass_u64 a5, sass_u64 a6, sass_u32 is_last) SASS_CONVERGENT;
extern "C" sass_u64 __ockl_printf_append_string_n(sass_u64 message, const char* text, sass_u64 length, sass_u32 is_last)
    SASS_CONVERGENT;

namespace gpuport_printf {

inline sass_u64 string_length(const char* s) {
  sass_u64 n = 0;
  while (s[n] != 0) ++n;
  return n;
}

inline bool one_of(char c, const char* set) {
  for (; *set != 0; ++set)
    if (*set == c) return true;
  return false;
}

// One pass over the format string. With `message` 0 it only counts the argument words; otherwise
// it appends each argument to `message` (the last one marked) and returns the count.
inline sass_u32 walk(const char* format, const char* arguments, sass_u64 message, sass_u32 total) {
  sass_u32 count = 0;
  sass_u64 offset = 0;
  // The next argument of `bytes` (4 or 8) at its natural alignment, zero-extended.
  auto take = [&](sass_u64 bytes) {
    offset = (offset + bytes - 1) & ~(bytes - 1);
    sass_u64 value = 0;
    if (bytes == 8) __builtin_memcpy(&value, arguments + offset, 8);
    else {
      sass_u32 word = 0;
      __builtin_memcpy(&word, arguments + offset, 4);
      value = word;
    }
    offset += bytes;
    return value;
  };
  auto send = [&](sass_u64 value, bool is_string) {
    ++count;
    if (message == 0) return;
    const sass_u32 last = count == total ? 1u : 0u;
    if (is_string) {
      const char* s = reinterpret_cast<const char*>(value);
      if (s == nullptr) s = "(null)";
      message = __ockl_printf_append_string_n(message, s, string_length(s) + 1, last);
    } else {
      message = __ockl_printf_append_args(message, 1, value, 0, 0, 0, 0, 0, 0, last);
    }
  };
  for (const char* p = format; *p != 0;) {
    if (*p++ != '%') continue;
    if (*p == '%') {
      ++p;
      continue;
    }
    const char* start = p;
    while (*p != 0 && one_of(*p, "-+ #0'")) ++p;
    int stars = 0;
    if (*p == '*') ++p, ++stars;
    while (*p >= '0' && *p <= '9') ++p;
    if (*p == '.') {
      ++p;
      if (*p == '*') ++p, ++stars;
      while (*p >= '0' && *p <= '9') ++p;
    }
    bool wide = false;
    while (*p != 0 && one_of(*p, "hljztL")) wide = wide || *p != 'h', ++p;
    const char conversion = *p;
    if (conversion == 0 || !one_of(conversion, "diouxXcfFeEgGaAspn")) {
      p = start;  // not a conversion: printed as written, takes no argument
      continue;
    }
    ++p;
    for (int i = 0; i < stars; ++i) send(take(4), false);
    if (conversion == 's') send(take(8), true);
    else if (one_of(conversion, "fFeEgGaApn") || (wide && conversion != 'c')) send(take(8), false);
    else send(take(4), false);
  }
  return count;
}

}  // namespace gpuport_printf

SASS_HOOK(sass_u32, vprintf)(const char* format, const char* arguments) {
  if (format == nullptr) return static_cast<sass_u32>(-1);
  const sass_u32 total = gpuport_printf::walk(format, arguments, 0, 0);
  sass_u64 message = __ockl_printf_begin(0);
  message = __ockl_printf_append_string_n(message, format, gpuport_printf::string_length(format) + 1, total == 0 ? 1u : 0u);
  if (total != 0) gpuport_printf::walk(format, arguments, message, total);
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
