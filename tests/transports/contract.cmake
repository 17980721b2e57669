# The transport contract test (test_contract.cpp), included from tests/CMakeLists.txt: one binary, one ctest per
# transport and PE count, each running only that transport's cases (--gtest_filter=*/<name>) with the transport
# made straight from the registry (no GSHMEM_TRANSPORTS: the core is not involved), with the core's defaults. ucx
# runs once more with atomics as active messages (GSHMEM_UCX_AMO=am), once with no put batched
# (GSHMEM_UCX_AGGREGATE=0, bytes) and, where run_multihost.sh can make two namespace hosts (root, else skipped),
# across them: ucx at 2 PEs (every peer through UCX over TCP), shm at 4 (it then reaches the PE of its own host
# only). A transport this build lacks skips.
#   ctest -L transport
add_executable(transport_contract transports/test_contract.cpp transports/contract_harness.cpp
               transports/contract_device.cpp transports/contract_request.cpp)
target_include_directories(transport_contract PRIVATE ${PROJECT_SOURCE_DIR}/tests)
target_link_libraries(transport_contract PRIVATE gshmem_internal GTest::gtest MPI::MPI_CXX Threads::Threads)
if(GSHMEM_HAVE_CUDA)  # GPU memory for the device transports (cuda_ipc); they skip without a GPU
  target_compile_definitions(transport_contract PRIVATE GSHMEM_CONTRACT_CUDA=1)
endif()

# The transports are kContractTransports in test_contract.cpp (the one line a new transport adds): each runs at 2
# and 4 PEs, self (which reaches only its own PE) at 2.
file(READ ${CMAKE_CURRENT_LIST_DIR}/test_contract.cpp _src)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/test_contract.cpp)
string(REGEX MATCH "kContractTransports\\[\\] = {[^}]*}" _list "${_src}")
string(REGEX MATCHALL "\"[A-Za-z0-9_]+\"" _names "${_list}")
if(NOT _names)
  message(FATAL_ERROR "tests/transports/contract.cmake: no kContractTransports list in test_contract.cpp")
endif()
set(_contract_rows)
foreach(_q IN LISTS _names)
  string(REPLACE "\"" "" _t "${_q}")
  if(_t STREQUAL "self")
    list(APPEND _contract_rows "${_t}|2|")
  else()
    list(APPEND _contract_rows "${_t}|2 4|")
  endif()
endforeach()
if(GSHMEM_HAVE_UCX)  # ucx's other data paths: atomics as active messages, puts never batched
  list(APPEND _contract_rows "ucx|2|am|GSHMEM_UCX_AMO=am" "ucx|2|noagg|GSHMEM_UCX_AGGREGATE=0")
endif()
foreach(_row IN LISTS _contract_rows)
  string(REPLACE "|" ";" _parts "${_row}")
  list(GET _parts 0 _t)
  list(GET _parts 1 _nps)
  list(GET _parts 2 _variant)
  string(REPLACE " " ";" _nps "${_nps}")
  set(_name ${_t})
  set(_env "GSHMEM_TEST_WATCHDOG_S=50")
  set(_labels "mpi;transport")
  if(_t STREQUAL "ucx")
    list(APPEND _labels ucx)
  elseif(_t STREQUAL "cuda_ipc")  # GPU memory: skips without a GPU
    list(APPEND _labels gpu)
  endif()
  if(_variant)
    set(_name ${_t}_${_variant})
    list(GET _parts 3 _var_env)
    list(APPEND _env "${_var_env}")
  endif()
  set(_filter "*/${_t}")
  if(_t STREQUAL "self")
    string(APPEND _filter ":ContractCoverage.*")  # the registry and kContractTransports agree
  endif()
  foreach(_np IN LISTS _nps)
    gshmem_mpiexec_command(_cmd ${_np} $<TARGET_FILE:transport_contract> --gtest_filter=${_filter})
    add_test(NAME transport_contract.${_name}.np${_np} COMMAND ${_cmd})
    set_tests_properties(transport_contract.${_name}.np${_np} PROPERTIES TIMEOUT 60 PROCESSORS ${_np}
                         LABELS "${_labels};np${_np}" ENVIRONMENT "${_env}"
                         SKIP_REGULAR_EXPRESSION "${GSHMEM_TEST_SKIP_REGEX}")
  endforeach()
endforeach()

if(GSHMEM_HAVE_UCX)
  set(_mh ${CMAKE_CURRENT_SOURCE_DIR}/multihost/run_multihost.sh)
  foreach(_row "2|*/ucx" "4|*/shm")
    string(REPLACE "|" ";" _parts "${_row}")
    list(GET _parts 0 _np)
    list(GET _parts 1 _filter)
    set(_name transport_contract.multihost.np${_np})
    add_test(NAME ${_name} COMMAND ${_mh} --mpirun ${MPIEXEC_EXECUTABLE} --timeout 110 --np ${_np} --quiet-output
                                   --env GSHMEM_TEST_WATCHDOG_S=50 --expect "PASSED"
                                   -- $<TARGET_FILE:transport_contract> --gtest_filter=${_filter})
    set_tests_properties(${_name} PROPERTIES TIMEOUT 260 SKIP_RETURN_CODE 77 RUN_SERIAL TRUE
                         LABELS "multihost;ucx;transport")
  endforeach()
endif()
