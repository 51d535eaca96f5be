# Host build: warnings as errors; sanitizers with -DATTRACTOR_SANITIZE=ON.
option(ATTRACTOR_SANITIZE "Build host code with AddressSanitizer and UndefinedBehaviorSanitizer" OFF)
add_compile_options(-Wall -Wextra -Werror -Wno-error=deprecated-declarations)
if(ATTRACTOR_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
endif()
find_package(GTest REQUIRED)
include(GoogleTest)
