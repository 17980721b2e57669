# Test registration helpers for gshmem.
#
#   gshmem_add_unit_test(<name> <sources>...)
#       tier (a): a plain GoogleTest binary linked with gshmem_internal (every layer's internal headers).
#   gshmem_add_mpi_test(<name> SOURCES <src>... [NP <n>...] [TIMEOUT <s>] [THREAD_MULTIPLE])
#       tier (c): a GoogleTest binary with tests/mpi_main.cpp, one ctest per PE count, named <name>.np<N>.
#   gshmem_add_mpi_program(<name> SOURCES <src>... [NP <n>...] [TIMEOUT <s>] [PASS_REGEX <re>])
#       a plain C program launched with mpiexec; passes when it exits 0 and prints PASS_REGEX.
#   gshmem_add_expect_test(<name> COMMAND <cmd>... [EXPECT_RC zero|nonzero|any] [REGEX <re>] [ALSO_REGEX <re>]
#                          [REJECT_REGEX <re>] [TIMEOUT <s>] [ENVIRONMENT <k=v>...] [LABELS <l>...])
#       runs <cmd> through this file in script mode and checks its exit status and its output (stdout and stderr
#       together): it must match REGEX and ALSO_REGEX and must not match REJECT_REGEX. EXPECT_RC any leaves the
#       exit status to the regexes (for a program whose expected outcome differs between machines).
#
# Every multi-PE test gets a ctest TIMEOUT (a hang fails), label `mpi`, and GSHMEM_SYMMETRIC_SIZE
# (GSHMEM_TEST_SYMMETRIC_SIZE) to keep memory small when PEs are oversubscribed.
#
# In script mode (cmake -DEXPECT_RC=.. -DREGEX=.. -DTIMEOUT=.. -P GshmemTesting.cmake -- cmd args...)
# this file is the expected-outcome runner used by gshmem_add_expect_test.

if(CMAKE_SCRIPT_MODE_FILE)
  # ---------------------------------------------------------------- runner (script mode)
  set(_cmd)
  set(_after FALSE)
  math(EXPR _last "${CMAKE_ARGC} - 1")
  foreach(i RANGE 0 ${_last})
    if(_after)
      list(APPEND _cmd "${CMAKE_ARGV${i}}")
    elseif(CMAKE_ARGV${i} STREQUAL "--")
      set(_after TRUE)
    endif()
  endforeach()
  if(NOT _cmd)
    message(FATAL_ERROR "gshmem expect runner: no command after --")
  endif()
  if(NOT DEFINED TIMEOUT)
    set(TIMEOUT 60)
  endif()
  if(NOT DEFINED EXPECT_RC)
    set(EXPECT_RC zero)
  endif()
  string(REPLACE ";" " " _cmd_text "${_cmd}")
  message("gshmem expect runner: ${_cmd_text}")
  execute_process(COMMAND ${_cmd} RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _out
                  TIMEOUT ${TIMEOUT})
  message("---- output ----\n${_out}---- exit status: ${_rc} ----")
  set(_errors)
  if(NOT _rc MATCHES "^-?[0-9]+$")
    list(APPEND _errors "command did not exit normally within ${TIMEOUT} s: ${_rc}")
  elseif(EXPECT_RC STREQUAL "zero" AND NOT _rc EQUAL 0)
    list(APPEND _errors "expected exit status 0, got ${_rc}")
  elseif(EXPECT_RC STREQUAL "nonzero" AND _rc EQUAL 0)
    list(APPEND _errors "expected a non-zero exit status, got 0")
  endif()
  if(DEFINED REGEX AND NOT REGEX STREQUAL "")
    if(NOT _out MATCHES "${REGEX}")
      list(APPEND _errors "output does not match regex '${REGEX}'")
    endif()
  endif()
  if(DEFINED ALSO_REGEX AND NOT ALSO_REGEX STREQUAL "")
    if(NOT _out MATCHES "${ALSO_REGEX}")
      list(APPEND _errors "output does not match regex '${ALSO_REGEX}'")
    endif()
  endif()
  if(DEFINED REJECT_REGEX AND NOT REJECT_REGEX STREQUAL "")
    if(_out MATCHES "${REJECT_REGEX}")
      list(APPEND _errors "output matches rejected regex '${REJECT_REGEX}'")
    endif()
  endif()
  if(_errors)
    foreach(e IN LISTS _errors)
      message("gshmem expect runner: FAILED: ${e}")
    endforeach()
    message(FATAL_ERROR "gshmem expect runner: check failed")
  endif()
  message("gshmem expect runner: OK")
  return()
endif()

# ------------------------------------------------------------------ configure-time helpers
include_guard(GLOBAL)

set(GSHMEM_TEST_NPROCS 2 4 CACHE STRING "PE counts every multi-PE test runs with")
set(GSHMEM_TEST_SYMMETRIC_SIZE 64M CACHE STRING "GSHMEM_SYMMETRIC_SIZE given to multi-PE tests")
set(GSHMEM_TEST_TIMEOUT 120 CACHE STRING "Default ctest TIMEOUT (seconds) of a multi-PE test")
set(GSHMEM_TESTING_SCRIPT ${CMAKE_CURRENT_LIST_FILE})

# Launcher flags: Open MPI needs --oversubscribe to run 4 PEs on fewer cores, --bind-to none so that
# oversubscribed PEs are not pinned to one core, and --allow-run-as-root inside containers.
set(GSHMEM_MPIEXEC_FLAGS)
execute_process(COMMAND ${MPIEXEC_EXECUTABLE} --version OUTPUT_VARIABLE _gshmem_mpiexec_version
                ERROR_VARIABLE _gshmem_mpiexec_version RESULT_VARIABLE _gshmem_rc)
if(_gshmem_mpiexec_version MATCHES "Open MPI|OpenRTE")
  execute_process(COMMAND id -u OUTPUT_VARIABLE _gshmem_uid OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(_gshmem_uid STREQUAL "0")
    list(APPEND GSHMEM_MPIEXEC_FLAGS --allow-run-as-root)
  endif()
  list(APPEND GSHMEM_MPIEXEC_FLAGS --oversubscribe --bind-to none)
endif()
message(STATUS "gshmem tests: ${MPIEXEC_EXECUTABLE} ${GSHMEM_MPIEXEC_FLAGS}; PE counts ${GSHMEM_TEST_NPROCS}")

# A multi-PE GoogleTest binary (tests/mpi_main.cpp) prints this line when every test it selected skipped and none
# failed; tests that run such a binary carry it as SKIP_REGULAR_EXPRESSION, so ctest counts them as skipped.
set(GSHMEM_TEST_SKIP_REGEX "gshmem-test: all [0-9]+ tests skipped")

# The mpiexec command line (a list) that runs `exe...` on `np` PEs.
function(gshmem_mpiexec_command out np)
  set(${out} ${MPIEXEC_EXECUTABLE} ${GSHMEM_MPIEXEC_FLAGS} ${MPIEXEC_NUMPROC_FLAG} ${np} ${MPIEXEC_PREFLAGS}
      ${ARGN} ${MPIEXEC_POSTFLAGS} PARENT_SCOPE)
endfunction()

function(gshmem_add_unit_test name)
  add_executable(${name} ${ARGN})
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/tests)
  target_link_libraries(${name} PRIVATE gshmem_internal GTest::gtest_main)
  add_test(NAME ${name} COMMAND ${name})
  set_tests_properties(${name} PROPERTIES TIMEOUT 60 LABELS unit)
endfunction()

function(gshmem_add_mpi_test name)
  cmake_parse_arguments(A "THREAD_MULTIPLE" "TIMEOUT" "SOURCES;NP;LIBS" ${ARGN})
  if(NOT A_NP)
    set(A_NP ${GSHMEM_TEST_NPROCS})
  endif()
  if(NOT A_TIMEOUT)
    set(A_TIMEOUT ${GSHMEM_TEST_TIMEOUT})
  endif()
  add_executable(${name} ${A_SOURCES} ${PROJECT_SOURCE_DIR}/tests/mpi_main.cpp)
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/tests)
  target_link_libraries(${name} PRIVATE gshmem GTest::gtest MPI::MPI_CXX Threads::Threads ${A_LIBS})
  if(A_THREAD_MULTIPLE)
    target_compile_definitions(${name} PRIVATE GSHMEM_TEST_THREAD_MULTIPLE=1)
  endif()
  # Per-test watchdog inside the binary fires before the ctest TIMEOUT and names the hung test.
  math(EXPR _watchdog "${A_TIMEOUT} - 10")
  foreach(np IN LISTS A_NP)
    gshmem_mpiexec_command(_cmd ${np} $<TARGET_FILE:${name}>)
    add_test(NAME ${name}.np${np} COMMAND ${_cmd})
    set_tests_properties(${name}.np${np} PROPERTIES TIMEOUT ${A_TIMEOUT} LABELS "mpi;np${np}" PROCESSORS ${np}
                         SKIP_REGULAR_EXPRESSION "${GSHMEM_TEST_SKIP_REGEX}"
                         ENVIRONMENT "GSHMEM_SYMMETRIC_SIZE=${GSHMEM_TEST_SYMMETRIC_SIZE};GSHMEM_TEST_WATCHDOG_S=${_watchdog}")
  endforeach()
endfunction()

function(gshmem_add_expect_test name)
  cmake_parse_arguments(A "" "EXPECT_RC;REGEX;ALSO_REGEX;REJECT_REGEX;TIMEOUT;PROCESSORS" "COMMAND;ENVIRONMENT;LABELS"
                        ${ARGN})
  if(NOT A_EXPECT_RC)
    set(A_EXPECT_RC zero)
  endif()
  if(NOT A_TIMEOUT)
    set(A_TIMEOUT 60)
  endif()
  math(EXPR _ctest_timeout "${A_TIMEOUT} + 15")
  add_test(NAME ${name}
           COMMAND ${CMAKE_COMMAND} -DEXPECT_RC=${A_EXPECT_RC} "-DREGEX=${A_REGEX}" "-DALSO_REGEX=${A_ALSO_REGEX}"
                   "-DREJECT_REGEX=${A_REJECT_REGEX}"
                   -DTIMEOUT=${A_TIMEOUT} -P ${GSHMEM_TESTING_SCRIPT} -- ${A_COMMAND})
  set_tests_properties(${name} PROPERTIES TIMEOUT ${_ctest_timeout} LABELS "${A_LABELS}")
  if(A_ENVIRONMENT)
    set_tests_properties(${name} PROPERTIES ENVIRONMENT "${A_ENVIRONMENT}")
  endif()
  if(A_PROCESSORS)
    set_tests_properties(${name} PROPERTIES PROCESSORS ${A_PROCESSORS})
  endif()
endfunction()

function(gshmem_add_mpi_program name)
  cmake_parse_arguments(A "" "TIMEOUT;PASS_REGEX;LANGUAGE" "SOURCES;NP" ${ARGN})
  if(NOT A_NP)
    set(A_NP ${GSHMEM_TEST_NPROCS})
  endif()
  if(NOT A_TIMEOUT)
    set(A_TIMEOUT 60)
  endif()
  if(NOT A_PASS_REGEX)
    set(A_PASS_REGEX "SUCCESS")
  endif()
  add_executable(${name} ${A_SOURCES})
  target_link_libraries(${name} PRIVATE gshmem)
  set_target_properties(${name} PROPERTIES C_STANDARD 11 C_STANDARD_REQUIRED ON C_EXTENSIONS OFF)
  foreach(np IN LISTS A_NP)
    gshmem_mpiexec_command(_cmd ${np} $<TARGET_FILE:${name}>)
    gshmem_add_expect_test(${name}.np${np} COMMAND ${_cmd} EXPECT_RC zero REGEX "${A_PASS_REGEX}"
                           TIMEOUT ${A_TIMEOUT} LABELS "mpi;np${np};program" PROCESSORS ${np}
                           ENVIRONMENT "GSHMEM_SYMMETRIC_SIZE=${GSHMEM_TEST_SYMMETRIC_SIZE}")
  endforeach()
endfunction()
