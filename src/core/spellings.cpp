#include "tensorbuf/spellings.hpp"

#include "core/error_macros.hpp"
#include "tensorbuf/errors.hpp"

namespace tensorbuf {

void throw_bad_spelling(std::string_view what, std::string_view word, std::string_view choices) {
  throw InvalidArgumentError(core::str_cat(what, " must be ", choices, ", not '", word, "'"));
}

std::optional<Device> find_device(std::string_view word) {
  const std::optional<Device::Kind> kind = find_spelling<Device::Kind>(word);
  if (kind) return *kind == Device::Kind::kCpu ? Device::cpu() : Device::cuda(0);
  const std::string_view cuda = spelling(Device::Kind::kCuda);
  if (!word.starts_with(cuda) || word.size() <= cuda.size() || word[cuda.size()] != ':') {
    return std::nullopt;
  }
  // Up to three decimal digits: no overflow to guard, and more devices than a machine has.
  const std::string_view digits = word.substr(cuda.size() + 1);
  if (digits.empty() || digits.size() > 3 ||
      digits.find_first_not_of("0123456789") != std::string_view::npos) {
    return std::nullopt;
  }
  int index = 0;
  for (const char digit : digits) index = index * 10 + (digit - '0');
  return Device::cuda(index);
}

Device parse_device(std::string_view word, std::string_view what) {
  if (const std::optional<Device> device = find_device(word)) return *device;
  throw_bad_spelling(what, word, kDeviceChoices);
}

std::string spelling(const Device& device) {
  std::string out(spelling(device.kind));
  if (device.is_cuda()) {
    out += ':';
    out += std::to_string(device.index);
  }
  return out;
}

}  // namespace tensorbuf
