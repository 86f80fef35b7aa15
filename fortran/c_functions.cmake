# The Fortran raw interfaces of the C API, read from include/tensorbuf/c_api.h itself (the one
# declaration of the C ABI): each TENSORBUF_API prototype becomes a plain interface body
# c_tb_<name> with bind(c, name="tb_<name>") (never procedure(<abstract>), bind(c): gfortran
# 12.2 miscompiles the `value` arguments of those), then a `public` statement naming them all.
# Run at build time by fortran/CMakeLists.txt (editing c_api.h regenerates the file):
#   cmake -DHEADER=c_api.h -DOUTPUT=tensorbuf_c_functions.inc -DTYPES=tensorbuf_c_types.inc \
#         -P c_functions.cmake
# and, in TYPES, the header's constants (#define TB_<X> <n>, the enums) as Fortran parameters
# and its structs as bind(c) types (_tensorbuf_types says how).
# The build fails, naming the function, when a prototype cannot be read or a parameter's C
# type has no rule below, and when the TENSORBUF_API count and the interfaces differ.
#
# How a C parameter is passed (the rules c_api.h follows; no list of exceptions):
#   by value: int and the enums -> integer(c_int), int64_t -> integer(c_int64_t), size_t ->
#     integer(c_size_t), float -> real(c_float), a struct (tb_device) -> type(T), value;
#   a handle, void* or an opaque struct (tb_buffer*, tb_processor*, struct DLPack...*), const
#     or not -> type(c_ptr), value;
#   T** (a new handle written by C) -> type(c_ptr), intent(out);
#   const T* of a scalar or a struct -> an array read, T(*) (shape, means, steps);
#   T* of a scalar -> written by C: one value, or TB_MAX_NDIM values when it is a shape
#     (named `shape` or `*_shape`, as the header documents them);
#   const tb_*_options* -> type(c_ptr), value: c_loc of the struct or c_null_ptr (the
#     defaults), except in an `_ex` function, whose one struct argument (the options of the
#     scatters and the mask update, tb_borrow_desc) is the struct itself, by reference.
# Returns: tb_status -> a function result(status) integer(c_int); void -> a subroutine;
# uint32_t -> integer(c_int32_t) and const char* -> type(c_ptr), result(res).
cmake_minimum_required(VERSION 3.25)

# `items` (a CMake list) after `first`, comma-separated, continued with ` &` onto lines that
# start with `indent` once a line would pass 96 columns (98 with the ` &`); `last` ends the
# final line.
function(_tensorbuf_wrap out first indent last)
  set(text "")
  set(line "${first}")
  set(fresh TRUE)   # nothing on `line` after its prefix yet
  list(LENGTH ARGN count)
  set(i 0)
  foreach(item IN LISTS ARGN)
    math(EXPR i "${i} + 1")
    set(piece "${item}")
    if(i LESS count)
      string(APPEND piece ",")
    endif()
    string(LENGTH "${line} ${piece}" width)
    if(NOT fresh AND width GREATER 96)
      string(APPEND text "${line} &\n")
      set(line "${indent}${piece}")
    elseif(fresh)
      string(APPEND line "${piece}")
    else()
      string(APPEND line " ${piece}")
    endif()
    set(fresh FALSE)
  endforeach()
  string(APPEND text "${line}${last}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

# The Fortran kind of a C scalar type passed by value, and the iso_c_binding name it imports.
function(_tensorbuf_scalar function type enums decl_out import_out)
  if(type STREQUAL "int" OR type IN_LIST enums)
    set(kind integer c_int)
  elseif(type STREQUAL "int64_t")
    set(kind integer c_int64_t)
  elseif(type STREQUAL "size_t")
    set(kind integer c_size_t)
  elseif(type STREQUAL "float")
    set(kind real c_float)
  else()
    message(FATAL_ERROR "c_api.h: ${function}: no Fortran rule for the C type '${type}'")
  endif()
  list(GET kind 0 fortran_type)
  list(GET kind 1 import)
  set(${decl_out} "${fortran_type}(${import})" PARENT_SCOPE)
  set(${import_out} ${import} PARENT_SCOPE)
endfunction()

# One C parameter `const T** name` (spaces normalised) of `function`: its declaration (without
# the name), the `(*)` after its name, the name it imports, and the name itself.
function(_tensorbuf_param function param enums structs decl_out dims_out import_out name_out)
  if(NOT param MATCHES "^(const )?(struct )?([A-Za-z0-9_]+)(\\**) ([a-z0-9_]+)$")
    message(FATAL_ERROR "c_api.h: ${function}: cannot read the parameter '${param}'")
  endif()
  set(const "${CMAKE_MATCH_1}")
  set(tagged "${CMAKE_MATCH_2}")
  set(type "${CMAKE_MATCH_3}")
  string(LENGTH "${CMAKE_MATCH_4}" stars)
  set(name "${CMAKE_MATCH_5}")
  set(dims "")
  set(is_struct FALSE)
  if(NOT tagged AND type IN_LIST structs)
    set(is_struct TRUE)
  endif()
  if(stars EQUAL 2)
    set(decl "type(c_ptr), intent(out)")
    set(import c_ptr)
  elseif(stars GREATER 2)
    message(FATAL_ERROR "c_api.h: ${function}: no Fortran rule for '${param}'")
  elseif(stars EQUAL 0 AND is_struct)
    set(decl "type(${type}), value")
    set(import ${type})
  elseif(stars EQUAL 0)
    _tensorbuf_scalar(${function} ${type} "${enums}" kind import)
    set(decl "${kind}, value")
  elseif(type STREQUAL "void" OR tagged OR (NOT is_struct AND type MATCHES "^tb_"
         AND NOT type IN_LIST enums))
    set(decl "type(c_ptr), value")   # a handle, opaque
    set(import c_ptr)
  elseif(is_struct AND NOT const)
    message(FATAL_ERROR "c_api.h: ${function}: no Fortran rule for '${param}'")
  elseif(is_struct AND function MATCHES "_ex$")
    set(decl "type(${type}), intent(in)")
    set(import ${type})
  elseif(is_struct AND type MATCHES "_options$")
    set(decl "type(c_ptr), value")
    set(import c_ptr)
  elseif(is_struct)
    set(decl "type(${type}), intent(in)")
    set(import ${type})
    set(dims "(*)")
  elseif(const)
    _tensorbuf_scalar(${function} ${type} "${enums}" kind import)
    set(decl "${kind}, intent(in)")
    set(dims "(*)")
  else()
    _tensorbuf_scalar(${function} ${type} "${enums}" kind import)
    set(decl "${kind}, intent(out)")
    if(name MATCHES "^(.*_)?shape$")
      set(dims "(*)")
    endif()
  endif()
  set(${decl_out} "${decl}" PARENT_SCOPE)
  set(${dims_out} "${dims}" PARENT_SCOPE)
  set(${import_out} "${import}" PARENT_SCOPE)
  set(${name_out} "${name}" PARENT_SCOPE)
endfunction()

# One interface body from a prototype `<return> tb_<name>(<params>)`, its spaces normalised.
function(_tensorbuf_interface prototype enums structs text_out name_out)
  if(NOT prototype MATCHES "^(.*[ *])tb_([a-z0-9_]+)\\((.*)\\)$")
    message(FATAL_ERROR "c_api.h: cannot read the prototype '${prototype}'")
  endif()
  string(STRIP "${CMAKE_MATCH_1}" returns)
  set(name "${CMAKE_MATCH_2}")
  set(params "${CMAKE_MATCH_3}")
  set(names "")
  set(imports "")
  set(decls "")       # declaration lines, consecutive arguments of one kind on one line
  set(group_decl "")
  set(group_names "")
  if(NOT params STREQUAL "void")
    string(REPLACE ", " ";" params "${params}")
  else()
    set(params "")
  endif()
  foreach(param IN LISTS params)
    _tensorbuf_param(tb_${name} "${param}" "${enums}" "${structs}" decl dims import arg_name)
    list(APPEND names ${arg_name})
    list(APPEND imports ${import})
    if(NOT decl STREQUAL group_decl AND NOT group_names STREQUAL "")
      list(JOIN group_names ", " joined)
      string(APPEND decls "      ${group_decl} :: ${joined}\n")
      set(group_names "")
    endif()
    set(group_decl "${decl}")
    list(APPEND group_names "${arg_name}${dims}")
  endforeach()
  if(NOT group_names STREQUAL "")
    list(JOIN group_names ", " joined)
    string(APPEND decls "      ${group_decl} :: ${joined}\n")
  endif()
  set(keyword function)
  if(returns STREQUAL "void")
    set(keyword subroutine)
    set(tail " &\n        bind(c, name=\"tb_${name}\")\n")
  elseif(returns STREQUAL "tb_status")
    list(APPEND imports c_int)
    set(tail " &\n        result(status) bind(c, name=\"tb_${name}\")\n")
    string(APPEND decls "      integer(c_int) :: status\n")
  elseif(returns STREQUAL "uint32_t")
    list(APPEND imports c_int32_t)
    set(tail " &\n        result(res) bind(c, name=\"tb_${name}\")\n")
    string(APPEND decls "      integer(c_int32_t) :: res\n")
  elseif(returns STREQUAL "const char*")
    list(APPEND imports c_ptr)
    set(tail " &\n        result(res) bind(c, name=\"tb_${name}\")\n")
    string(APPEND decls "      type(c_ptr) :: res\n")
  else()
    message(FATAL_ERROR "c_api.h: tb_${name}: no Fortran rule for the return type '${returns}'")
  endif()
  # The iso_c_binding kinds in one order, then the module's types.
  set(ordered "")
  foreach(kind c_int c_int32_t c_int64_t c_float c_ptr c_size_t)
    if(kind IN_LIST imports)
      list(APPEND ordered ${kind})
    endif()
  endforeach()
  list(FILTER imports INCLUDE REGEX "^tb_")
  list(REMOVE_DUPLICATES imports)
  list(APPEND ordered ${imports})
  list(JOIN ordered ", " ordered)
  _tensorbuf_wrap(head "    ${keyword} c_tb_${name}(" "        " ")${tail}" ${names})
  set(${text_out} "${head}      import :: ${ordered}\n${decls}    end ${keyword}\n"
      PARENT_SCOPE)
  set(${name_out} c_tb_${name} PARENT_SCOPE)
endfunction()

# The header's integer constants as Fortran parameters, integer(c_int): each `#define TB_X <n>`
# (TB_ABI_VERSION, TB_MAX_NDIM) and each enumerator of each enum, one statement per enum, its
# values counted as C does (an enumerator without `= <n>` is the previous one's plus one).
function(_tensorbuf_constants text body_out)
  set(body "")
  string(REGEX MATCHALL "#define TB_[A-Z0-9_]+ [0-9]+u?[ ]" defines "${text}")
  set(pieces "")
  foreach(define IN LISTS defines)
    string(REGEX REPLACE "#define (TB_[A-Z0-9_]+) ([0-9]+)u? " "\\1 = \\2" define "${define}")
    list(APPEND pieces "${define}")
  endforeach()
  if(pieces)
    _tensorbuf_wrap(line "  integer(c_int), parameter, public :: " "      " "\n" ${pieces})
    string(APPEND body "${line}")
  endif()
  string(REGEX MATCHALL "typedef enum {[^}]*} tb_[a-z_]+" enums "${text}")
  foreach(enum IN LISTS enums)
    string(REGEX REPLACE "typedef enum {(.*)} (tb_[a-z_]+)" "\\1" enumerators "${enum}")
    string(REGEX REPLACE ".* " "" name "${enum}")
    string(REPLACE "," ";" enumerators "${enumerators}")
    set(pieces "")
    set(next 0)
    foreach(enumerator IN LISTS enumerators)
      string(STRIP "${enumerator}" enumerator)
      if(enumerator STREQUAL "")
        continue()   # a trailing comma
      elseif(enumerator MATCHES "^(TB_[A-Z0-9_]+) = (-?[0-9]+)$")
        set(next ${CMAKE_MATCH_2})
      elseif(NOT enumerator MATCHES "^(TB_[A-Z0-9_]+)$")
        message(FATAL_ERROR "c_api.h: ${name}: cannot read the enumerator '${enumerator}'")
      endif()
      list(APPEND pieces "${CMAKE_MATCH_1} = ${next}")
      math(EXPR next "${next} + 1")
    endforeach()
    _tensorbuf_wrap(line "  integer(c_int), parameter, public :: " "      " "\n" ${pieces})
    string(APPEND body "  ! ${name}\n${line}")
  endforeach()
  set(${body_out} "${body}" PARENT_SCOPE)
endfunction()

# The fields whose Fortran default is not zero: each starts at the library's default, which C
# reaches only through NULL options (C's `= {0}` means broadcast off, axis 0), so that a struct
# built by its Fortran constructor means what the wrappers' defaults mean (broadcast .true.;
# ONNX's axis 1).
set(_TENSORBUF_FORTRAN_DEFAULTS "tb_mask_update_options%broadcast = 1"
                                "tb_quantize_linear_options%axis = 1")

# The header's structs (`typedef struct { ... } tb_x`), in its order, as bind(c) types: int and
# the enums integer(c_int), size_t integer(c_size_t), int64_t integer(c_int64_t), float
# real(c_float), any pointer type(c_ptr) (an option struct's `device`: c_loc of a
# type(tb_device), target; c_null_ptr, where the first input lives), a function pointer
# type(c_funptr), a struct type(T); each field zero or null but _TENSORBUF_FORTRAN_DEFAULTS.
function(_tensorbuf_types text enums body_out)
  string(ASCII 3 end)
  set(body "")
  string(REGEX MATCHALL "typedef struct {[^}]*} tb_[a-z_]+" structs "${text}")
  set(known "")
  foreach(struct IN LISTS structs)
    string(REGEX REPLACE "typedef struct {(.*)} (tb_[a-z_]+)" "\\1" fields "${struct}")
    string(REGEX REPLACE ".* " "" name "${struct}")
    string(REPLACE "${end}" ";" fields "${fields}")
    string(APPEND body "  type, bind(c), public :: ${name}\n")
    foreach(field IN LISTS fields)
      string(STRIP "${field}" field)
      if(field STREQUAL "")
        continue()
      elseif(field MATCHES "^[a-z_0-9]+ \\(\\* ?([a-z_0-9]+)\\)\\(")
        set(field_name ${CMAKE_MATCH_1})
        set(decl "type(c_funptr) :: ${field_name} = c_null_funptr")
      elseif(field MATCHES "^(const )?([A-Za-z0-9_]+)(\\**) ([a-z0-9_]+)$")
        set(type ${CMAKE_MATCH_2})
        set(stars "${CMAKE_MATCH_3}")
        set(field_name ${CMAKE_MATCH_4})
        if(NOT stars STREQUAL "")
          set(decl "type(c_ptr) :: ${field_name} = c_null_ptr")
        elseif(type IN_LIST known)
          set(decl "type(${type}) :: ${field_name}")
        else()
          _tensorbuf_scalar(${name} ${type} "${enums}" kind import)
          set(value 0)
          foreach(default IN LISTS _TENSORBUF_FORTRAN_DEFAULTS)
            if(default MATCHES "^${name}%${field_name} = (.*)$")
              set(value ${CMAKE_MATCH_1})
            endif()
          endforeach()
          set(decl "${kind} :: ${field_name} = ${value}")
        endif()
      else()
        message(FATAL_ERROR "c_api.h: ${name}: cannot read the field '${field}'")
      endif()
      string(APPEND body "    ${decl}\n")
    endforeach()
    string(APPEND body "  end type\n")
    list(APPEND known ${name})
  endforeach()
  set(${body_out} "${body}" PARENT_SCOPE)
endfunction()

# tensorbuf_fortran_interfaces(<c_api.h> <output> [<types output>]): every TENSORBUF_API
# function of the header, in its order; and its constants and structs.
function(tensorbuf_fortran_interfaces header output)
  file(READ ${header} text)
  # Comments out (a /* ... */ is one bracketed run once its delimiters are single characters),
  # each `;` (CMake's list separator) as `end`, whitespace as single spaces.
  string(ASCII 1 open)
  string(ASCII 2 close)
  string(ASCII 3 end)
  string(REPLACE "/*" "${open}" text "${text}")
  string(REPLACE "*/" "${close}" text "${text}")
  string(REGEX REPLACE "${open}[^${close}]*${close}" " " text "${text}")
  string(REGEX REPLACE "//[^\n]*" " " text "${text}")
  string(REPLACE ";" "${end}" text "${text}")
  string(REGEX REPLACE "[ \t\r\n]+" " " text "${text}")
  string(REGEX REPLACE " ?\\* ?" "*" text "${text}")              # `T *x`, `T * x` -> `T*x`
  string(REGEX REPLACE "\\*([A-Za-z_])" "* \\1" text "${text}")   # -> `T* x`
  string(REGEX REPLACE "([(]) " "\\1" text "${text}")
  string(REGEX REPLACE " ([),])" "\\1" text "${text}")
  # The header's enum and struct typedefs (by name); any other tb_ type is an opaque handle.
  string(REGEX MATCHALL "typedef enum {[^}]*} tb_[a-z_]+" enums "${text}")
  list(TRANSFORM enums REPLACE ".* " "")
  string(REGEX MATCHALL "typedef struct {[^}]*} tb_[a-z_]+" structs "${text}")
  list(TRANSFORM structs REPLACE ".* " "")
  string(REGEX MATCHALL "TENSORBUF_API [^${end}]*${end}" prototypes "${text}")
  string(REGEX MATCHALL "TENSORBUF_API" exported "${text}")
  list(LENGTH prototypes count)
  list(LENGTH exported expected)
  if(count EQUAL 0 OR NOT count EQUAL expected)
    message(FATAL_ERROR "c_api.h: ${expected} TENSORBUF_API declarations, ${count} read as "
                        "`TENSORBUF_API <return> tb_<name>(<parameters>) TB_NOEXCEPT`")
  endif()
  set(body "")
  set(publics "")
  foreach(prototype IN LISTS prototypes)
    if(NOT prototype MATCHES " TB_NOEXCEPT${end}$")
      message(FATAL_ERROR "c_api.h: '${prototype}' does not end with `TB_NOEXCEPT;`")
    endif()
    string(REGEX REPLACE "^TENSORBUF_API (.*) TB_NOEXCEPT${end}$" "\\1" prototype "${prototype}")
    _tensorbuf_interface("${prototype}" "${enums}" "${structs}" one fortran_name)
    string(APPEND body "${one}")
    list(APPEND publics ${fortran_name})
  endforeach()
  _tensorbuf_wrap(public "  public :: " "      " "\n" ${publics})
  file(CONFIGURE OUTPUT ${output} CONTENT "\
! Generated from include/tensorbuf/c_api.h by fortran/c_functions.cmake: do not edit.\n\
  interface\n${body}  end interface\n${public}" @ONLY)
  if(ARGC GREATER 2)
    _tensorbuf_constants("${text}" constants)
    _tensorbuf_types("${text}" "${enums}" types)
    file(CONFIGURE OUTPUT ${ARGV2} CONTENT "\
! Generated from include/tensorbuf/c_api.h by fortran/c_functions.cmake: do not edit.\n\
${constants}${types}" @ONLY)
  endif()
endfunction()

if(CMAKE_SCRIPT_MODE_FILE AND DEFINED HEADER AND DEFINED OUTPUT)
  tensorbuf_fortran_interfaces(${HEADER} ${OUTPUT} ${TYPES})
endif()
