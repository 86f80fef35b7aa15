# tensorbuf_fortran_interfaces(<list file> <combines> <output>): the raw interfaces of the C
# functions in <list file> (c_functions.list says its form) as one Fortran `interface` block,
# each function a plain interface body (never procedure(<abstract>), bind(c): gfortran 12.2
# miscompiles the `value` arguments of those), then a `public` statement naming them all.

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

# The argument kinds of c_functions.list: `kind|declaration|imported name|after the name`.
set(_TENSORBUF_KINDS
  "ptr|type(c_ptr), value|c_ptr|"
  "ptr_out|type(c_ptr), intent(out)|c_ptr|"
  "int|integer(c_int), value|c_int|"
  "int_out|integer(c_int), intent(out)|c_int|"
  "i64|integer(c_int64_t), value|c_int64_t|"
  "i64_out|integer(c_int64_t), intent(out)|c_int64_t|"
  "i64_array|integer(c_int64_t), intent(in)|c_int64_t|(*)"
  "i64_array_out|integer(c_int64_t), intent(out)|c_int64_t|(*)"
  "size|integer(c_size_t), value|c_size_t|"
  "float|real(c_float), value|c_float|"
  "float_array|real(c_float), intent(in)|c_float|(*)"
  "device|type(tb_device), value|tb_device|")

# The declaration of an argument kind (without the name), the `(*)` after its name, and the
# name it imports. A struct type is read by reference, <struct>_array an array of them.
function(_tensorbuf_kind kind decl_out dims_out import_out)
  if(kind MATCHES "^(tb_[a-z_]+)_array$")
    set(entry "${kind}|type(${CMAKE_MATCH_1}), intent(in)|${CMAKE_MATCH_1}|(*)")
  elseif(kind MATCHES "^tb_[a-z_]+$")
    set(entry "${kind}|type(${kind}), intent(in)|${kind}|")
  else()
    set(entry "")
    foreach(known IN LISTS _TENSORBUF_KINDS)
      if(known MATCHES "^${kind}[|]")
        set(entry "${known}")
      endif()
    endforeach()
    if(entry STREQUAL "")
      message(FATAL_ERROR "c_functions.list: unknown argument kind '${kind}'")
    endif()
  endif()
  string(REGEX MATCH "^[^|]*[|]([^|]*)[|]([^|]*)[|](.*)$" _unused "${entry}")
  set(${decl_out} "${CMAKE_MATCH_1}" PARENT_SCOPE)
  set(${import_out} "${CMAKE_MATCH_2}" PARENT_SCOPE)
  set(${dims_out} "${CMAKE_MATCH_3}" PARENT_SCOPE)
endfunction()

# One interface body from a line `[void ]name(kind arg, ...)`; its Fortran name in `name_out`.
function(_tensorbuf_interface line text_out name_out)
  if(NOT line MATCHES "^(void )?([a-z0-9_]+)\\((.*)\\)$")
    message(FATAL_ERROR "c_functions.list: cannot read '${line}'")
  endif()
  set(void "${CMAKE_MATCH_1}")
  set(name "${CMAKE_MATCH_2}")
  string(REPLACE ", " ";" args "${CMAKE_MATCH_3}")
  set(names "")
  set(imports "")
  set(decls "")       # declaration lines, consecutive arguments of one kind on one line
  set(group_decl "")
  set(group_names "")
  foreach(arg IN LISTS args)
    if(NOT arg MATCHES "^([a-z0-9_]+) ([a-z0-9_]+)$")
      message(FATAL_ERROR "c_functions.list: argument '${arg}' of ${name} is not `kind name`")
    endif()
    set(arg_name ${CMAKE_MATCH_2})
    _tensorbuf_kind(${CMAKE_MATCH_1} decl dims import)
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
  list(JOIN group_names ", " joined)
  string(APPEND decls "      ${group_decl} :: ${joined}\n")
  if(void)
    set(keyword subroutine)
    set(tail " &\n        bind(c, name=\"tb_${name}\")\n")
  else()
    set(keyword function)
    list(APPEND imports c_int)
    set(tail " &\n        result(status) bind(c, name=\"tb_${name}\")\n")
    string(APPEND decls "      integer(c_int) :: status\n")
  endif()
  # The iso_c_binding kinds in one order, then the module's types.
  set(ordered "")
  foreach(kind c_int c_int64_t c_float c_ptr c_size_t)
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

# Appends the interface bodies of the lines after `publics_var` to `body_var`, and their names
# to `publics_var`.
function(_tensorbuf_add_interfaces body_var publics_var)
  set(body "${${body_var}}")
  set(publics "${${publics_var}}")
  foreach(one IN LISTS ARGN)
    _tensorbuf_interface("${one}" text fortran_name)
    string(APPEND body "${text}")
    list(APPEND publics ${fortran_name})
  endforeach()
  set(${body_var} "${body}" PARENT_SCOPE)
  set(${publics_var} "${publics}" PARENT_SCOPE)
endfunction()

function(tensorbuf_fortran_interfaces list_file combines output)
  file(STRINGS ${list_file} lines)
  list(APPEND lines "")   # ends a last run of @combine@ lines
  set(body "")
  set(publics "")
  set(run "")   # consecutive @combine@ lines: written together for each combine in turn
  set(head "")  # a function's line so far: one ending in "," goes on on the next line
  foreach(line IN LISTS lines)
    if(line MATCHES "^#")
      continue()
    elseif(NOT head STREQUAL "")
      string(STRIP "${line}" line)
      string(PREPEND line "${head} ")
      set(head "")
    endif()
    if(line MATCHES "^[a-z].*,$")
      set(head "${line}")
      continue()
    elseif(line MATCHES "^[a-z].*@combine@")
      list(APPEND run "${line}")
      continue()
    endif()
    foreach(combine IN LISTS combines)
      if(NOT run STREQUAL "")
        string(REPLACE "@combine@" "${combine}" expanded "${run}")
        _tensorbuf_add_interfaces(body publics ${expanded})
      endif()
    endforeach()
    set(run "")
    if(line MATCHES "^!")
      string(APPEND body "    ${line}\n")
    elseif(NOT line STREQUAL "")
      _tensorbuf_add_interfaces(body publics "${line}")
    endif()
  endforeach()
  _tensorbuf_wrap(public "  public :: " "      " "\n" ${publics})
  file(CONFIGURE OUTPUT ${output} CONTENT "\
! Generated from fortran/c_functions.list by fortran/c_functions.cmake: do not edit.\n\
  interface\n${body}  end interface\n${public}" @ONLY)
endfunction()
