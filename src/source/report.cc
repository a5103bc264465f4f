#include "source/report.h"

#include <map>
#include <set>

#include <fmt/format.h>

#include "common/text.h"

namespace gpuport::source {

std::size_t TranslationReport::count(Severity severity) const {
  std::size_t n = 0;
  for (const auto& f : files)
    for (const auto& d : f.findings) n += d.severity == severity;
  for (const auto& d : errors) n += d.severity == severity;
  return n;
}

std::size_t TranslationReport::failed_checks() const {
  std::size_t n = 0;
  for (const auto& f : files)
    for (const auto& c : f.checks) n += !c.skipped && !c.passed;
  return n;
}

std::string format_text(const TranslationReport& report, bool show_notes) {
  std::string out;
  auto add = [&](const Diagnostic& d) {
    if (d.severity == Severity::note && !show_notes) return;
    out += format_diagnostic(d);
    out += '\n';
    if (!d.fix.empty()) out += fmt::format("    {}: {}\n", d.fixed ? "fixed" : "fix", d.fix);
  };
  for (const auto& d : report.errors) add(d);
  std::size_t translated = 0, copied = 0, rejected = 0, rewrites = 0, changed = 0;
  std::size_t checks_passed = 0, checks_failed = 0, checks_skipped = 0;
  for (const auto& f : report.files) {
    translated += f.translated;
    copied += f.copied;
    rejected += f.rejected;
    changed += f.changed;
    rewrites += f.rewrites;
    for (const auto& d : f.findings) add(d);
    for (const auto& c : f.checks) {
      if (c.skipped) {
        ++checks_skipped;
        continue;
      }
      (c.passed ? checks_passed : checks_failed)++;
      out += fmt::format("{}: check {}: {}\n", f.output.empty() ? f.input : f.output, c.target,
                         c.passed ? "compiles" : "FAILED");
      if (!c.passed) {
        out += fmt::format("    command: {}\n", c.command);
        std::string msg = c.message;
        if (msg.size() > 4000) msg = msg.substr(0, 4000) + "\n    ...";
        for (std::size_t p = 0; p < msg.size();) {
          auto nl = msg.find('\n', p);
          out += "    " + msg.substr(p, nl == std::string::npos ? std::string::npos : nl - p) + "\n";
          p = nl == std::string::npos ? msg.size() : nl + 1;
        }
      }
    }
  }
  std::set<std::string> skipped_reasons;
  for (const auto& f : report.files)
    for (const auto& c : f.checks)
      if (c.skipped) skipped_reasons.insert(fmt::format("check {} SKIPPED: {}", c.target, c.message));
  for (const auto& r : skipped_reasons) out += r + "\n";
  out += fmt::format("gpuport: {} files translated ({} changed, {} rewrites), {} copied, {} rejected; "
                     "{} errors, {} warnings, {} notes",
                     translated, changed, rewrites, copied, rejected, report.count(Severity::error),
                     report.count(Severity::warning), report.count(Severity::note));
  if (checks_passed + checks_failed + checks_skipped > 0)
    out += fmt::format("; checks: {} passed, {} failed, {} skipped", checks_passed, checks_failed, checks_skipped);
  out += '\n';
  return out;
}

namespace {

nlohmann::json diagnostic_json(const Diagnostic& d) {
  nlohmann::json j = {{"file", d.location.file},
                      {"line", d.location.line},
                      {"column", d.location.column},
                      {"severity", severity_name(d.severity)},
                      {"code", d.code},
                      {"message", d.message}};
  if (!d.fix.empty()) j["fix"] = d.fix;
  j["fixed"] = d.fixed;
  return j;
}

}  // namespace

nlohmann::json to_json(const TranslationReport& report) {
  nlohmann::json files = nlohmann::json::array();
  for (const auto& f : report.files) {
    nlohmann::json jf = {{"input", f.input},       {"output", f.output},   {"translated", f.translated},
                         {"copied", f.copied},     {"rejected", f.rejected}, {"changed", f.changed},
                         {"rewrites", f.rewrites}, {"findings", nlohmann::json::array()}};
    for (const auto& d : f.findings) jf["findings"].push_back(diagnostic_json(d));
    if (!f.checks.empty()) {
      jf["checks"] = nlohmann::json::array();
      for (const auto& c : f.checks)
        jf["checks"].push_back({{"target", c.target},
                                {"status", c.skipped ? "skipped" : c.passed ? "passed" : "failed"},
                                {"command", c.command},
                                {"message", c.message}});
    }
    files.push_back(std::move(jf));
  }
  nlohmann::json errors = nlohmann::json::array();
  for (const auto& d : report.errors) errors.push_back(diagnostic_json(d));
  return {{"tool", "gpuport"},
          {"files", std::move(files)},
          {"errors", std::move(errors)},
          {"summary",
           {{"errors", report.count(Severity::error)},
            {"warnings", report.count(Severity::warning)},
            {"notes", report.count(Severity::note)},
            {"failed_checks", report.failed_checks()}}}};
}

nlohmann::json to_sarif(const TranslationReport& report) {
  std::map<std::string, nlohmann::json> rules;
  nlohmann::json results = nlohmann::json::array();
  auto add = [&](const Diagnostic& d) {
    if (!rules.count(d.code)) rules[d.code] = {{"id", d.code}, {"shortDescription", {{"text", d.code}}}};
    const char* level = d.severity == Severity::error ? "error" : d.severity == Severity::warning ? "warning" : "note";
    nlohmann::json loc = {{"physicalLocation", {{"artifactLocation", {{"uri", path_to_uri(d.location.file)}}}}}};
    if (d.location.line > 0)
      loc["physicalLocation"]["region"] = {{"startLine", d.location.line}, {"startColumn", d.location.column}};
    nlohmann::json r = {{"ruleId", d.code},
                        {"level", level},
                        {"message", {{"text", d.fix.empty() ? d.message : d.message + ". Fix: " + d.fix}}},
                        {"locations", nlohmann::json::array({loc})}};
    results.push_back(std::move(r));
  };
  for (const auto& d : report.errors) add(d);
  for (const auto& f : report.files)
    for (const auto& d : f.findings) add(d);
  nlohmann::json rule_list = nlohmann::json::array();
  for (auto& [id, r] : rules) rule_list.push_back(r);
  return {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
          {"version", "2.1.0"},
          {"runs",
           nlohmann::json::array({{{"tool", {{"driver", {{"name", "gpuport"}, {"rules", rule_list}}}}},
                                   {"results", results}}})}};
}

}  // namespace gpuport::source
