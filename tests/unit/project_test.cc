#include <fstream>
#include <set>

#include <gtest/gtest.h>
#include <unistd.h>

#include "common/file_io.h"
#include "source/project.h"
#include "test_support.h"

namespace gpuport::source {
namespace {
namespace fs = std::filesystem;

void write(const fs::path& p, const std::string& content) { ASSERT_FALSE(write_file_atomic(p, content).has_value()); }
std::string read(const fs::path& p) { return *read_file(p, 1u << 30); }

std::set<std::string> tree(const fs::path& root) {
  std::set<std::string> out;
  for (auto& e : fs::recursive_directory_iterator(root))
    if (e.is_regular_file()) out.insert(fs::relative(e.path(), root).string());
  return out;
}

TEST(Project, MirrorsATreeAndCopiesOtherFiles) {
  testing::TempDir dir;
  const fs::path in = dir.path() / "in", out = dir.path() / "out";
  write(in / "main.cu", "#include \"k.cuh\"\nint main() { float* p; cudaMalloc(&p, 4); }\n");
  write(in / "k.cuh", "#pragma once\n__global__ void k() {}\n");
  write(in / "sub" / "notes.txt", "cudaMalloc stays in text files\n");
  ProjectOptions o;
  o.mode = OutputMode::directory;
  o.output_dir = out;
  auto r = translate_project({in}, testing::small_map(), o);
  EXPECT_EQ(tree(out), (std::set<std::string>{"main.cu", "k.cuh", "sub/notes.txt"}));
  EXPECT_NE(read(out / "main.cu").find("hipMalloc"), std::string::npos);
  EXPECT_NE(read(out / "k.cuh").find("#include <hip/hip_runtime.h>"), std::string::npos);
  EXPECT_EQ(read(out / "sub" / "notes.txt"), "cudaMalloc stays in text files\n");
  EXPECT_FALSE(r.report.io_failure);
}

TEST(Project, AnOutputTreeInsideTheInputIsNotTranslatedAgain) {
  testing::TempDir dir;
  write(dir.path() / "a.cu", "void f() { cudaFree(0); }\n");
  ProjectOptions o;
  o.mode = OutputMode::directory;
  o.output_dir = dir.path() / "out";
  translate_project({dir.path()}, testing::small_map(), o);
  auto second = translate_project({dir.path()}, testing::small_map(), o);
  EXPECT_EQ(tree(dir.path() / "out"), (std::set<std::string>{"a.cu"}));
  EXPECT_EQ(second.report.files.size(), 1u);
}

TEST(Project, FileInputsBringTheirLocalHeaders) {
  testing::TempDir dir;
  write(dir.path() / "src" / "main.cu", "#include \"../inc/util.cuh\"\n#include <vector>\nint main() {}\n");
  write(dir.path() / "inc" / "util.cuh", "#pragma once\n#include \"deep.h\"\ninline void f(cudaStream_t s) {}\n");
  write(dir.path() / "inc" / "deep.h", "#pragma once\ninline void g() { cudaFree(0); }\n");
  ProjectOptions o;
  o.mode = OutputMode::directory;
  o.output_dir = dir.path() / "out";
  translate_project({dir.path() / "src" / "main.cu"}, testing::small_map(), o);
  EXPECT_EQ(tree(dir.path() / "out"), (std::set<std::string>{"src/main.cu", "inc/util.cuh", "inc/deep.h"}));
  EXPECT_NE(read(dir.path() / "out" / "inc" / "util.cuh").find("hipStream_t"), std::string::npos);
  EXPECT_NE(read(dir.path() / "out" / "inc" / "deep.h").find("hipFree"), std::string::npos);
}

TEST(Project, InPlaceIsAtomicWithABackup) {
  testing::TempDir dir;
  const fs::path f = dir.path() / "a.cu";
  const std::string original = "void f() { cudaFree(0); }\n";
  write(f, original);
  write(dir.path() / "same.cu", "int unchanged;\n");
  ProjectOptions o;
  o.mode = OutputMode::in_place;
  translate_project({dir.path()}, testing::small_map(), o);
  EXPECT_NE(read(f).find("hipFree"), std::string::npos);
  EXPECT_EQ(read(dir.path() / "a.cu.gpuport.bak"), original);
  EXPECT_FALSE(fs::exists(dir.path() / "same.cu.gpuport.bak"));  // unchanged files are left alone
  o.backup = false;
  write(dir.path() / "b.cu", original);
  translate_project({dir.path() / "b.cu"}, testing::small_map(), o);
  EXPECT_FALSE(fs::exists(dir.path() / "b.cu.gpuport.bak"));
}

TEST(Project, BadInputsAreReportedAndNothingIsWritten) {
  testing::TempDir dir;
  const fs::path in = dir.path() / "in", out = dir.path() / "out";
  write(in / "good.cu", "void f() { cudaFree(0); }\n");
  write(in / "binary.cu", std::string("\x7f" "ELF\0\0\0", 7));
  write(in / "latin1.cu", "// caf\xE9\n");
  write(in / "open.cu", "int x; /* never closed\n");
  write(in / "big.cu", std::string(5000, ' '));
  ProjectOptions o;
  o.mode = OutputMode::directory;
  o.output_dir = out;
  o.max_file_size = 4000;
  auto r = translate_project({in}, testing::small_map(), o);
  EXPECT_EQ(tree(out), (std::set<std::string>{"good.cu"}));
  std::set<std::string> codes;
  for (const auto& f : r.report.files)
    for (const auto& d : f.findings) {
      codes.insert(d.code);
      EXPECT_FALSE(d.location.file.empty());
    }
  EXPECT_TRUE(codes.count("binary-file"));
  EXPECT_TRUE(codes.count("invalid-utf8"));
  EXPECT_TRUE(codes.count("unterminated-comment"));
  EXPECT_TRUE(codes.count("file-too-large"));
}

TEST(Project, A200MegabyteFileIsRefusedByDefault) {
  testing::TempDir dir;
  const fs::path big = dir.path() / "huge.cu";
  {
    std::ofstream f(big);
    f << "int x;\n";
  }
  fs::resize_file(big, 200ull << 20);  // sparse: no 200 MB written to disk
  ProjectOptions o;
  o.mode = OutputMode::directory;
  o.output_dir = dir.path() / "out";
  auto r = translate_project({big}, testing::small_map(), o);
  ASSERT_EQ(r.report.files.size(), 1u);
  ASSERT_EQ(r.report.files[0].findings.size(), 1u);
  EXPECT_EQ(r.report.files[0].findings[0].code, "file-too-large");
  EXPECT_NE(r.report.files[0].findings[0].message.find("--max-file-size"), std::string::npos);
  EXPECT_FALSE(fs::exists(dir.path() / "out" / "huge.cu"));
}

TEST(Project, UnreadableFilesAreIoErrors) {
  if (::geteuid() == 0) GTEST_SKIP() << "running as root: permission checks do not apply";
  testing::TempDir dir;
  write(dir.path() / "in" / "secret.cu", "int x;\n");
  fs::permissions(dir.path() / "in" / "secret.cu", fs::perms::none);
  ProjectOptions o;
  o.mode = OutputMode::directory;
  o.output_dir = dir.path() / "out";
  auto r = translate_project({dir.path() / "in"}, testing::small_map(), o);
  EXPECT_TRUE(r.report.io_failure);
}

TEST(Project, MissingInputsAreIoErrors) {
  auto r = translate_project({"/nonexistent/path.cu"}, testing::small_map(), {});
  EXPECT_TRUE(r.report.io_failure);
  ASSERT_EQ(r.report.errors.size(), 1u);
  EXPECT_EQ(r.report.errors[0].location.file, "/nonexistent/path.cu");
}

TEST(Project, OutputIsIdenticalAtAnyJobCount) {
  testing::TempDir dir;
  for (int i = 0; i < 40; ++i)
    write(dir.path() / "in" / ("f" + std::to_string(i) + ".cu"),
          "__global__ void k" + std::to_string(i) + "(int* p) { p[threadIdx.x % 32] = 0; cudaUnknown" +
              std::to_string(i % 3) + "(); }\nvoid h() { cudaFree(0); }\n");
  ProjectOptions o;
  o.mode = OutputMode::memory;
  auto one = translate_project({dir.path() / "in"}, testing::small_map(), o);
  o.jobs = 8;
  auto many = translate_project({dir.path() / "in"}, testing::small_map(), o);
  EXPECT_EQ(one.outputs, many.outputs);
  EXPECT_EQ(to_json(one.report).dump(), to_json(many.report).dump());
}

TEST(Project, NamesDeclaredInOneFileAreNotUnknownInAnother) {
  testing::TempDir dir;
  write(dir.path() / "util.h", "#pragma once\nvoid cudaCheckLast(const char* what);\n");
  write(dir.path() / "main.cu", "#include \"util.h\"\nint main() { cudaCheckLast(\"x\"); cudaMysteryCall(); }\n");
  ProjectOptions o;
  auto r = translate_project({dir.path()}, testing::small_map(), o);
  std::vector<std::string> unknown;
  for (const auto& f : r.report.files)
    for (const auto& d : f.findings)
      if (d.code == "unknown-api") unknown.push_back(d.message);
  ASSERT_EQ(unknown.size(), 1u);
  EXPECT_NE(unknown[0].find("cudaMysteryCall"), std::string::npos);
}

TEST(Reports, JsonAndSarifCarryEveryFinding) {
  testing::TempDir dir;
  write(dir.path() / "a.cu", "void f() { cudaBindTexture(0); }\n");
  auto r = translate_project({dir.path() / "a.cu"}, testing::small_map(), {});
  auto json = to_json(r.report);
  EXPECT_EQ(json["summary"]["errors"], 1);
  EXPECT_EQ(json["files"][0]["findings"][0]["code"], "unsupported-api");
  auto sarif = to_sarif(r.report);
  EXPECT_EQ(sarif["version"], "2.1.0");
  EXPECT_EQ(sarif["runs"][0]["results"][0]["ruleId"], "unsupported-api");
  EXPECT_EQ(sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"], 1);
  const auto text = format_text(r.report);
  EXPECT_NE(text.find("a.cu:1:12: error: 'cudaBindTexture' (runtime) has no HIP equivalent [unsupported-api]"),
            std::string::npos) << text;
}

}  // namespace
}  // namespace gpuport::source
