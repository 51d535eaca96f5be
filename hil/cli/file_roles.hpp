// SPDX-License-Identifier: Apache-2.0
// The files one invocation reads and writes, compared before anything is opened for writing: an
// output may be neither an input (the config file, a firmware image, a recording) nor another
// output, by device and inode, so a hard link or a symlink to the same file counts; an output
// that does not exist yet is compared by its resolved path (symlinks in it followed). Standard
// output and error count as outputs when they are regular files (`--csv log > log`). Host-only.
#pragma once

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

#include "exit_codes.hpp"

namespace attractor::cli {

// A file an option names: its option ("--csv", "standard output") and path.
struct NamedFile {
  std::string option, path;
};

namespace detail {

// What makes two names the same file: device and inode when it exists, else the resolved path.
struct FileKey {
  bool exists = false;
  dev_t dev = 0;
  ino_t ino = 0;
  std::string resolved;
  bool same(const FileKey& o) const {
    if (exists && o.exists) return dev == o.dev && ino == o.ino;
    return !exists && !o.exists && resolved == o.resolved;
  }
};

inline FileKey file_key(const std::string& path) {
  FileKey k;
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    k.exists = true, k.dev = st.st_dev, k.ino = st.st_ino;
    return k;
  }
  // Not there (yet): the name it will be created under. A dangling symlink creates its target.
  std::error_code ec;
  std::filesystem::path p = std::filesystem::absolute(path, ec);
  for (int hops = 0; hops < 40 && std::filesystem::is_symlink(p, ec); ++hops) {
    const auto target = std::filesystem::read_symlink(p, ec);
    if (ec) break;
    p = target.is_absolute() ? target : p.parent_path() / target;
  }
  k.resolved = std::filesystem::weakly_canonical(p, ec).string();
  if (ec) k.resolved = p.lexically_normal().string();
  return k;
}

}  // namespace detail

// The file a program name runs (execvp's search of PATH); empty when none is found.
inline std::string program_file(const std::string& name) {
  if (name.empty() || name.find('/') != std::string::npos) return name;
  const char* env = ::getenv("PATH");
  const std::string path = env != nullptr ? env : "/usr/local/bin:/usr/bin:/bin";
  for (std::size_t b = 0; b <= path.size();) {
    std::size_t e = path.find(':', b);
    if (e == std::string::npos) e = path.size();
    const std::string candidate = (e == b ? std::string(".") : path.substr(b, e - b)) + "/" + name;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    b = e + 1;
  }
  return std::string();
}

// Throws exit_usage when an output is an input or another output; nothing has been opened then.
// `standard_streams`: also when an output is the regular file standard output or error go to
// (both streams into one log is the user's choice and stays allowed).
inline void refuse_overlapping_files(const std::vector<NamedFile>& inputs, const std::vector<NamedFile>& given,
                                     bool standard_streams = true) {
  std::vector<NamedFile> outputs;  // the outputs named (an option not given has no path)
  for (const auto& o : given)
    if (!o.path.empty()) outputs.push_back(o);
  auto quoted = [](const NamedFile& f) { return f.path.empty() ? f.option : f.option + " '" + f.path + "'"; };
  std::vector<NamedFile> streams;
  std::vector<detail::FileKey> stream_keys;
  if (standard_streams)
    for (int fd : {1, 2}) {
      struct stat st {};
      if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) continue;
      detail::FileKey k;
      k.exists = true, k.dev = st.st_dev, k.ino = st.st_ino;
      streams.push_back({fd == 1 ? "standard output" : "standard error", ""});
      stream_keys.push_back(k);
    }
  std::vector<detail::FileKey> out_keys;
  for (const auto& o : outputs) out_keys.push_back(detail::file_key(o.path));
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    for (const auto& in : inputs)
      if (!in.path.empty() && out_keys[i].same(detail::file_key(in.path)))
        throw Failure(exit_usage,
                      quoted(outputs[i]) + " is the file of " + quoted(in) + " (an input): it would be overwritten");
    for (std::size_t j = 0; j < i; ++j)
      if (out_keys[i].same(out_keys[j]))
        throw Failure(exit_usage, quoted(outputs[i]) + " is the file of " + quoted(outputs[j]) +
                                      " (another output): both would be written into one file");
    for (std::size_t j = 0; j < streams.size(); ++j)
      if (out_keys[i].same(stream_keys[j]))
        throw Failure(exit_usage, quoted(outputs[i]) + " is the file " + streams[j].option +
                                      " goes to: both would be written into one file");
  }
}

}  // namespace attractor::cli
