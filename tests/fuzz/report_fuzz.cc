// libFuzzer target for the JSON and SARIF writers with arbitrary bytes in every string that
// comes from the user's files: file names, finding messages, fixes, kernel names, labels.
// No crash (the JSON library used to abort on invalid UTF-8), the documents parse back, and
// the escapes are consistent: a name comes back as to_valid_utf8(name), a SARIF URI
// percent-decodes to the path's bytes.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/json.h"
#include "common/text.h"
#include "sass/divergence.h"
#include "source/report.h"

namespace {

std::string percent_decode(std::string_view uri) {
  if (uri.starts_with("file://")) uri.remove_prefix(7);
  std::string out;
  for (std::size_t i = 0; i < uri.size(); ++i) {
    if (uri[i] == '%' && i + 2 < uri.size()) {
      out += static_cast<char>(std::stoi(std::string(uri.substr(i + 1, 2)), nullptr, 16));
      i += 2;
    } else {
      out += uri[i];
    }
  }
  return out;
}

void check(bool ok) {
  if (!ok) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // Up to four strings, separated by NUL bytes.
  std::vector<std::string> parts(4);
  std::size_t k = 0;
  for (std::size_t i = 0; i < size; ++i) {
    if (data[i] == 0 && k + 1 < parts.size()) ++k;
    else parts[k] += static_cast<char>(data[i]);
  }
  gpuport::source::TranslationReport report;
  gpuport::source::FileReport file;
  file.input = parts[0];
  file.output = parts[1];
  file.translated = true;
  gpuport::Diagnostic d;
  d.severity = gpuport::Severity::warning;
  d.code = parts[3];
  d.message = parts[2];
  d.fix = parts[3];
  d.location = {parts[0], 1, 1};
  file.findings.push_back(d);
  gpuport::source::CheckOutcome c;
  c.target = "gfx1100";
  c.command = parts[1];
  c.message = parts[2];
  file.checks.push_back(c);
  report.files.push_back(file);
  report.errors.push_back(d);

  const auto json = nlohmann::json::parse(gpuport::dump_json(gpuport::source::to_json(report)));
  check(json["files"][0]["input"] == gpuport::to_valid_utf8(parts[0]));
  check(json["files"][0]["findings"][0]["message"] == gpuport::to_valid_utf8(parts[2]));
  const auto sarif = nlohmann::json::parse(gpuport::dump_json(gpuport::source::to_sarif(report)));
  const std::string uri = sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"];
  check(percent_decode(uri) == parts[0]);

  gpuport::sass::DivergenceReport divergence;
  divergence.function = parts[0];
  gpuport::sass::BranchDivergence branch;
  branch.text = parts[1];
  branch.reason = parts[2];
  divergence.branches.push_back(branch);
  divergence.problems.push_back(parts[3]);
  divergence.barrier_modifiers[parts[3]] = 1;
  const auto dj = nlohmann::json::parse(gpuport::sass::divergence_json({divergence}));
  check(dj[0]["function"] == gpuport::to_valid_utf8(parts[0]));
  return 0;
}
