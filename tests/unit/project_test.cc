#include <algorithm>
#include <fstream>
#include <set>

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/json.h"

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

TEST(Project, BadInputsAreReportedAndKeptUnchangedInTheOutputTree) {
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
  // No file is lost: what cannot be translated is copied as it is (and reported).
  EXPECT_EQ(tree(out), (std::set<std::string>{"big.cu", "binary.cu", "good.cu", "latin1.cu", "open.cu"}));
  EXPECT_EQ(read(out / "binary.cu"), std::string("\x7f" "ELF\0\0\0", 7));
  EXPECT_EQ(read(out / "open.cu"), "int x; /* never closed\n");
  EXPECT_EQ(read(out / "latin1.cu"), "// caf\xE9\n");
  EXPECT_EQ(std::count_if(r.report.files.begin(), r.report.files.end(), [](const auto& f) { return f.rejected; }), 3);
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
  EXPECT_TRUE(codes.count("kept-unchanged"));
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
  ASSERT_EQ(r.report.files[0].findings.size(), 2u);
  EXPECT_EQ(r.report.files[0].findings[0].code, "file-too-large");
  EXPECT_NE(r.report.files[0].findings[0].message.find("--max-file-size"), std::string::npos);
  // Copied, not read: the output tree keeps it.
  EXPECT_EQ(r.report.files[0].findings[1].code, "kept-unchanged");
  EXPECT_EQ(fs::file_size(dir.path() / "out" / "huge.cu"), 200ull << 20);
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

std::set<std::string> codes_of(const ProjectResult& r) {
  std::set<std::string> codes;
  for (const auto& d : r.report.errors) codes.insert(d.code);
  for (const auto& f : r.report.files)
    for (const auto& d : f.findings) codes.insert(d.code);
  return codes;
}

mode_t mode_of(const fs::path& p) {
  struct stat st {};
  ::stat(p.c_str(), &st);
  return st.st_mode & 07777;
}

TEST(Project, AnOutputTreeOnTheInputsIsRefused) {
  const std::string original = "void f() { cudaFree(0); }\n";
  for (int variant = 0; variant < 4; ++variant) {
    testing::TempDir dir;
    const fs::path src = dir.path() / "src";
    write(src / "a.cu", original);
    write(src / "notes.txt", "text\n");
    fs::create_symlink(src, dir.path() / "link");
    ProjectOptions o;
    o.mode = OutputMode::directory;
    std::vector<fs::path> inputs = {src};
    switch (variant) {
      case 0: o.output_dir = src; break;                                   // translate src -o src
      case 1: o.output_dir = dir.path() / "link"; break;                   // -o a link to src
      case 2: inputs = {src / "a.cu"}, o.output_dir = src; break;          // a file's own folder
      case 3: o.output_dir = src / "sub" / ".."; break;                    // the same folder spelled otherwise
    }
    auto r = translate_project(inputs, testing::small_map(), o);
    EXPECT_TRUE(r.report.io_failure) << variant;
    ASSERT_FALSE(r.report.errors.empty()) << variant;
    EXPECT_NE(r.report.errors[0].message.find("would overwrite"), std::string::npos) << r.report.errors[0].message;
    EXPECT_EQ(read(src / "a.cu"), original) << variant;
    EXPECT_EQ(tree(src), (std::set<std::string>{"a.cu", "notes.txt"})) << variant;
  }
}

TEST(Project, InPlaceTwiceKeepsTheOriginalInTheBackup) {
  // A file that gets the vote shim: translating the translation must change nothing, and the
  // backup must still hold the original (before, the second run rewrote the shim and its
  // backup replaced the first).
  testing::TempDir dir;
  const fs::path f = dir.path() / "vote.cu";
  const std::string original = "__global__ void k(unsigned* o) { o[0] = __ballot_sync(0xffffffffu, threadIdx.x & 1); }\n";
  write(f, original);
  ProjectOptions o;
  o.mode = OutputMode::in_place;
  translate_project({f}, testing::small_map(), o);
  const std::string once = read(f);
  EXPECT_NE(once.find("GPUPORT_NVIDIA_WARP_VOTES"), std::string::npos) << once;
  auto second = translate_project({f}, testing::small_map(), o);
  EXPECT_EQ(read(f), once) << "a translation is a fixed point";
  EXPECT_FALSE(second.report.files[0].changed);
  EXPECT_EQ(read(dir.path() / "vote.cu.gpuport.bak"), original);
  // A file edited back to CUDA and translated again: the new backup goes beside the first.
  write(f, original + "void h() { cudaFree(0); }\n");
  translate_project({f}, testing::small_map(), o);
  EXPECT_EQ(read(dir.path() / "vote.cu.gpuport.bak"), original);
  EXPECT_EQ(read(dir.path() / "vote.cu.gpuport.bak.1"), original + "void h() { cudaFree(0); }\n");
}

TEST(Project, InPlaceKeepsModeAndOwner) {
  testing::TempDir dir;
  const fs::path f = dir.path() / "private.cu";
  write(f, "void f() { cudaFree(0); }\n");
  ::chmod(f.c_str(), 0600);
  const bool root = ::geteuid() == 0;
  if (root) {
    ASSERT_EQ(::chown(f.c_str(), 4321, 4322), 0);
  }
  ProjectOptions o;
  o.mode = OutputMode::in_place;
  translate_project({f}, testing::small_map(), o);
  const fs::path backup = dir.path() / "private.cu.gpuport.bak";
  EXPECT_EQ(mode_of(f), 0600u);
  EXPECT_EQ(mode_of(backup), 0600u) << "a backup of a private file is private";
  if (root) {
    struct stat st {};
    ::stat(f.c_str(), &st);
    EXPECT_EQ(st.st_uid, 4321u);
    EXPECT_EQ(st.st_gid, 4322u);
    ::stat(backup.c_str(), &st);
    EXPECT_EQ(st.st_uid, 4321u);
  }
}

TEST(Project, AnOutputTreeKeepsModes) {
  testing::TempDir dir;
  write(dir.path() / "in" / "run.cu", "void f() { cudaFree(0); }\n");
  write(dir.path() / "in" / "build.sh", "#!/bin/sh\n");
  write(dir.path() / "in" / "secret.cu", "int x;\n");
  ::chmod((dir.path() / "in" / "run.cu").c_str(), 0755);
  ::chmod((dir.path() / "in" / "build.sh").c_str(), 0755);
  ::chmod((dir.path() / "in" / "secret.cu").c_str(), 0600);
  ProjectOptions o;
  o.mode = OutputMode::directory;
  o.output_dir = dir.path() / "out";
  translate_project({dir.path() / "in"}, testing::small_map(), o);
  EXPECT_EQ(mode_of(dir.path() / "out" / "run.cu"), 0755u);
  EXPECT_EQ(mode_of(dir.path() / "out" / "build.sh"), 0755u);
  EXPECT_EQ(mode_of(dir.path() / "out" / "secret.cu"), 0600u);
}

TEST(Project, InPlaceLeavesLinksAndRefusesWhatItWouldBreak) {
  testing::TempDir dir;
  const fs::path tree_root = dir.path() / "tree", outside = dir.path() / "outside.cu";
  const std::string cuda = "void f() { cudaFree(0); }\n";
  write(tree_root / "real.cu", cuda);
  write(outside, cuda);
  fs::create_symlink(tree_root / "real.cu", tree_root / "inside-link.cu");
  fs::create_symlink(outside, tree_root / "outside-link.cu");
  write(tree_root / "linked.cu", cuda);
  fs::create_hard_link(tree_root / "linked.cu", dir.path() / "other-name.cu");
  ProjectOptions o;
  o.mode = OutputMode::in_place;
  auto r = translate_project({tree_root}, testing::small_map(), o);
  EXPECT_NE(read(tree_root / "real.cu").find("hipFree"), std::string::npos);
  EXPECT_TRUE(fs::is_symlink(tree_root / "inside-link.cu")) << "links stay links";
  EXPECT_EQ(read(outside), cuda) << "nothing outside the inputs is written";
  EXPECT_TRUE(fs::is_symlink(tree_root / "outside-link.cu"));
  EXPECT_EQ(read(tree_root / "linked.cu"), cuda) << "a hard-linked file is refused, not split";
  EXPECT_EQ(fs::hard_link_count(tree_root / "linked.cu"), 2u);
  const auto codes = codes_of(r);
  EXPECT_TRUE(codes.count("in-place-symlink"));
  EXPECT_TRUE(codes.count("in-place-symlink-outside"));
  EXPECT_TRUE(codes.count("in-place-hard-link"));
  EXPECT_GT(r.report.count(Severity::error), 0u);
}

TEST(Project, BrokenLinksAndLoopsInATreeAreReported) {
  testing::TempDir dir;
  write(dir.path() / "in" / "a.cu", "int x;\n");
  fs::create_symlink(dir.path() / "in" / "missing.cu", dir.path() / "in" / "dangling.cu");
  fs::create_symlink(dir.path() / "in" / "loop2.cu", dir.path() / "in" / "loop1.cu");
  fs::create_symlink(dir.path() / "in" / "loop1.cu", dir.path() / "in" / "loop2.cu");
  fs::create_directories(dir.path() / "elsewhere");
  fs::create_directory_symlink(dir.path() / "elsewhere", dir.path() / "in" / "folder-link");
  ProjectOptions o;
  o.mode = OutputMode::none;
  auto r = translate_project({dir.path() / "in"}, testing::small_map(), o);
  const auto codes = codes_of(r);
  EXPECT_TRUE(codes.count("dangling-symlink"));
  EXPECT_TRUE(codes.count("symlink-loop"));
  EXPECT_TRUE(codes.count("symlink-folder"));
  EXPECT_EQ(r.report.files.size(), 1u);
}

TEST(Project, AFifoInputIsRefusedNotWaitedOn) {
  testing::TempDir dir;
  ASSERT_EQ(::mkfifo((dir.path() / "pipe.cu").c_str(), 0600), 0);
  auto r = translate_project({dir.path() / "pipe.cu"}, testing::small_map(), {});
  ASSERT_EQ(r.report.files.size(), 1u);
  EXPECT_TRUE(r.report.files[0].rejected);
  EXPECT_TRUE(r.report.io_failure);
}

TEST(Project, TemporariesOfAnInterruptedRunAreCleanedUp) {
  testing::TempDir dir;
  write(dir.path() / "a.cu", "void f() { cudaFree(0); }\n");
  const pid_t dead = ::fork();
  if (dead == 0) ::_exit(0);
  ::waitpid(dead, nullptr, 0);
  const fs::path stale = dir.path() / (".a.cu.gpuport-" + std::to_string(dead) + "-q1w2e3");
  write(stale, "half a file");
  ProjectOptions o;
  o.mode = OutputMode::in_place;
  auto r = translate_project({dir.path()}, testing::small_map(), o);
  EXPECT_FALSE(fs::exists(stale));
  EXPECT_TRUE(codes_of(r).count("stale-temporaries"));
  EXPECT_EQ(r.report.files.size(), 1u) << "the temporary is not translated as a file of the tree";
}

TEST(Project, AFailedWriteIsNotCountedAsTranslated) {
  testing::TempDir dir;
  write(dir.path() / "in" / "sub" / "a.cu", "void f() { cudaFree(0); }\n");
  // out/sub is a file where the tree needs a folder: no write can succeed, even as root.
  write(dir.path() / "out" / "sub", "in the way\n");
  ProjectOptions o;
  o.mode = OutputMode::directory;
  o.output_dir = dir.path() / "out";
  auto r = translate_project({dir.path() / "in"}, testing::small_map(), o);
  ASSERT_EQ(r.report.files.size(), 1u);
  EXPECT_FALSE(r.report.files[0].translated);
  EXPECT_TRUE(r.report.files[0].rejected);
  EXPECT_TRUE(r.report.io_failure);
  EXPECT_NE(format_text(r.report).find("0 files translated"), std::string::npos) << format_text(r.report);
}

TEST(Reports, NamesThatAreNotUtf8GiveValidJsonAndSarif) {
  testing::TempDir dir;
  const fs::path f = dir.path() / "caf\xE9 #1%.cu";
  write(f, "void f() { cudaBindTexture(0); }\n");
  auto r = translate_project({f}, testing::small_map(), {});
  const auto json = nlohmann::json::parse(dump_json(to_json(r.report)));
  const std::string input = json["files"][0]["input"];
  EXPECT_NE(input.find("caf\\xE9 #1%.cu"), std::string::npos) << input;
  const auto sarif = nlohmann::json::parse(dump_json(to_sarif(r.report)));
  const std::string uri = sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"];
  EXPECT_NE(uri.find("caf%E9%20%231%25.cu"), std::string::npos) << uri;
}

}  // namespace
}  // namespace gpuport::source
