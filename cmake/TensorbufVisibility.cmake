# tensorbuf_hide_symbols(target): compile `target` with hidden visibility (C, C++ and the host
# code of .cu files), so that a shared library exports only the declarations marked
# TENSORBUF_API (include/tensorbuf/export.h) and the rest can neither clash with a program's
# symbols nor be linked against. A static library is compiled the same way (one set of flags,
# and a program that links it into a shared library of its own re-exports only the API).
function(tensorbuf_hide_symbols target)
  set_target_properties(${target} PROPERTIES C_VISIBILITY_PRESET hidden
                        CXX_VISIBILITY_PRESET hidden CUDA_VISIBILITY_PRESET hidden
                        VISIBILITY_INLINES_HIDDEN ON)
  # CMake 3.25 knows no inlines-hidden flag for nvcc: it goes to the host compiler directly.
  target_compile_options(${target} PRIVATE
                         $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-fvisibility-inlines-hidden>)
endfunction()
