# Warning and sanitizer flags for tensorbuf's own targets (never exported to consumers).
add_library(tensorbuf_warnings INTERFACE)
target_compile_options(tensorbuf_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wshadow -Wnon-virtual-dtor
    -Wno-missing-field-initializers>  # g++ 12 flags designated initialisers of our option structs
  $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<BOOL:${TENSORBUF_WERROR}>>:-Werror>
  $<$<AND:$<COMPILE_LANGUAGE:CUDA>,$<BOOL:${TENSORBUF_WERROR}>>:--Werror=all-warnings -Xcompiler=-Wall,-Werror>)

if(TENSORBUF_SANITIZE)
  string(REPLACE ";" "," _tensorbuf_sanitizers "${TENSORBUF_SANITIZE}")
  add_compile_options(-fsanitize=${_tensorbuf_sanitizers} -fno-omit-frame-pointer
                      -fno-sanitize-recover=all)
  add_link_options(-fsanitize=${_tensorbuf_sanitizers})
endif()
