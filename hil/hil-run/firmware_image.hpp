// SPDX-License-Identifier: Apache-2.0
// The --elf image, checked before QEMU starts: a readable regular file, a 32-bit little-endian
// ARM executable whose program headers and loaded segments lie inside the file (a truncated
// copy fails here, not as "no frame within 10 s"). Which plant the firmware controls is not
// read from the image: its hello answer says it, on every byte path (firmware_identity.hpp).
#pragma once

#include <sys/stat.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

#include "exit_codes.hpp"

namespace hil_run {

namespace elf_detail {
inline uint32_t le32(const std::string& d, std::size_t at) {
  return uint32_t(uint8_t(d[at])) | uint32_t(uint8_t(d[at + 1])) << 8 | uint32_t(uint8_t(d[at + 2])) << 16 |
         uint32_t(uint8_t(d[at + 3])) << 24;
}
inline uint32_t le16(const std::string& d, std::size_t at) {
  return uint32_t(uint8_t(d[at])) | uint32_t(uint8_t(d[at + 1])) << 8;
}
}  // namespace elf_detail

constexpr std::size_t kMaxImageBytes = std::size_t(256) << 20;  // firmware images are a few MiB

// Throws Failure(exit_usage) with the reason when `path` is no runnable ARM image.
inline void check_firmware_image(const std::string& path) {
  using attractor::cli::exit_usage;
  using attractor::cli::Failure;
  using namespace elf_detail;
  const std::string what = "--elf '" + path + "': ";
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) throw Failure(exit_usage, what + std::strerror(errno));
  if (!S_ISREG(st.st_mode)) throw Failure(exit_usage, what + "not a regular file");
  if (std::size_t(st.st_size) > kMaxImageBytes)
    throw Failure(exit_usage, what + "larger than 256 MiB, not a firmware image");
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) throw Failure(exit_usage, what + "cannot read: " + std::strerror(errno));
  std::string d(std::size_t(st.st_size), '\0');
  const std::size_t got = d.empty() ? 0 : std::fread(&d[0], 1, d.size(), f);
  const bool read_error = std::ferror(f) != 0;
  std::fclose(f);
  if (read_error || got != d.size()) throw Failure(exit_usage, what + "cannot read");
  if (d.size() < 52 || d.compare(0, 4,
                                 "\x7f"
                                 "ELF") != 0)
    throw Failure(exit_usage, what + "not an ELF file");
  if (d[4] != 1 || d[5] != 1) throw Failure(exit_usage, what + "not a 32-bit little-endian ELF (not for a Cortex-M)");
  if (le16(d, 16) != 2)
    throw Failure(exit_usage, what + "not an executable (ELF type " + std::to_string(le16(d, 16)) + ")");
  if (le16(d, 18) != 40)
    throw Failure(exit_usage, what + "not an ARM image (ELF machine " + std::to_string(le16(d, 18)) + ")");
  const uint64_t phoff = le32(d, 28), phentsize = le16(d, 42), phnum = le16(d, 44);
  if (phnum == 0 || phentsize < 32 || phoff + phnum * phentsize > d.size())
    throw Failure(exit_usage, what + "truncated or damaged (program headers outside the file)");
  for (uint64_t i = 0; i < phnum; ++i) {
    const std::size_t h = std::size_t(phoff + i * phentsize);
    const uint64_t type = le32(d, h), offset = le32(d, h + 4), filesz = le32(d, h + 16);
    if (type == 1 && offset + filesz > d.size())  // PT_LOAD
      throw Failure(exit_usage,
                    what + "truncated (a loaded segment ends past the file's " + std::to_string(d.size()) + " bytes)");
  }
}

}  // namespace hil_run
