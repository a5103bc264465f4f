// Diagnostics shared by every stage: a position in a file, a severity, a stable code and an
// optional suggested fix. Stages return these instead of throwing for expected failures.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gpuport {

enum class Severity : std::uint8_t { note, warning, error };

std::string_view severity_name(Severity severity);

struct SourceLocation {
  std::string file;
  std::uint32_t line = 0;    // 1-based; 0 when the diagnostic concerns the whole file
  std::uint32_t column = 0;  // 1-based byte column
};

struct Diagnostic {
  Severity severity = Severity::error;
  std::string code;     // stable, kebab-case: "unsupported-api", "warp-size-literal", ...
  std::string message;  // one sentence, no trailing period
  SourceLocation location;
  std::string fix;      // suggested fix in words or code; empty when none
  bool fixed = false;   // the fix was applied to the output
};

// "file:line:col: severity: message [code]" as compilers print it.
std::string format_diagnostic(const Diagnostic& diagnostic);

bool has_errors(const std::vector<Diagnostic>& diagnostics);

// A value or the diagnostics that explain why there is none. Diagnostics may accompany a value
// too (warnings).
template <class T>
class Result {
 public:
  Result(T value) : value_(std::move(value)) {}  // NOLINT: implicit by design
  Result(Diagnostic error) { diagnostics_.push_back(std::move(error)); }  // NOLINT
  static Result failure(std::vector<Diagnostic> diagnostics) {
    Result r;
    r.diagnostics_ = std::move(diagnostics);
    return r;
  }

  bool ok() const { return value_.has_value(); }
  explicit operator bool() const { return ok(); }
  T& value() { return *value_; }
  const T& value() const { return *value_; }
  T* operator->() { return &*value_; }
  const T* operator->() const { return &*value_; }
  T& operator*() { return *value_; }
  const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }
  std::vector<Diagnostic>& diagnostics() { return diagnostics_; }

 private:
  Result() = default;
  std::optional<T> value_;
  std::vector<Diagnostic> diagnostics_;
};

}  // namespace gpuport
