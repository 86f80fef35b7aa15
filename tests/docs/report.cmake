# ctest docs.examples: the documents' examples that tests/docs/CMakeLists.txt could not frame.
file(READ "${PROBLEMS}" problems)
if(NOT problems STREQUAL "")
  message(FATAL_ERROR "examples not compiled (tests/docs/CMakeLists.txt):\n${problems}")
endif()
message(STATUS "every C/C++ example of README.md and docs/*.md is compiled by tensorbuf_doc_examples")
