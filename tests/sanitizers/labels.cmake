# Sanitizer subsets of the suite (docs/SANITIZERS.md), included at the end of tests/CMakeLists.txt:
#   ctest -L asan    run in a build configured with GSHMEM_SANITIZE=address,undefined (tests/sanitizers/run.sh asan)
#   ctest -L tsan    run in a build configured with GSHMEM_SANITIZE=thread (tests/sanitizers/run.sh tsan)
# asan: the unit tests of the runtime's data structures; the multi-PE GoogleTest binaries of the core paths and every
# spec-style program at 2 PEs, the heavier ones also at 4; the collectives self-test; the bad-input runs (the
# configuration values are parsed in unit_config). asan_leaks: the asan tests that also check for leaks at exit.
# tsan: the tests that run several threads per PE. Left out of both: GPU, install, fault-injection and exit-timing
# tests, whose time bounds a sanitizer's slowdown would break, and what only adds build time.
# A sanitizer report fails the test even where a non-zero exit is the expected outcome (bad_input).

set(_san_report "ERROR: AddressSanitizer|ERROR: LeakSanitizer|runtime error: |WARNING: ThreadSanitizer")

set(_asan_pe "(rma|atomics|signals|wait|sync_locks|teams|globals|symmetric_memory|threads|contexts)")
set(_asan_regex "^(unit_(config|heap_allocator|transports|proxy_ring|socket_bootstrap)|pe_${_asan_pe}\\.np2|prog_[a-z_0-9]+\\.np2")
string(APPEND _asan_regex "|coll_selftest\\.np[24]|bad_(put|pe|mis|heap|env_sym|align|concurrent).*)$")
set(_asan_np4 pe_rma.np4 pe_atomics.np4 pe_sync_locks.np4 pe_teams.np4 prog_collectives_team.np4
    prog_team_split_2d.np4 uniqueid_fork.good.np4 uniqueid_fork.kill.np4 uniqueid_fork.dup)
set(_asan_leaks unit_heap_allocator prog_hello.np2 pe_symmetric_memory.np2 pe_teams.np2 pe_contexts.np2
    coll_selftest.np2 bad_heap_exhaustion)
set(_tsan_tests pe_threads.np2 pe_wait.np2 pe_sync_locks.np2 prog_ctx_threads.np2 bad_concurrent_fatal
    unit_socket_bootstrap uniqueid_fork.good.np4 uniqueid_fork.kill.np4)

get_property(_san_all DIRECTORY PROPERTY TESTS)
foreach(_t IN LISTS _san_all)
  set(_labels)
  if(_t MATCHES "${_asan_regex}" OR _t IN_LIST _asan_np4)
    list(APPEND _labels asan)
  endif()
  if(_t IN_LIST _tsan_tests)
    list(APPEND _labels tsan)
  endif()
  if(_t IN_LIST _asan_leaks)
    list(APPEND _labels asan_leaks)
    set_property(TEST ${_t} PROPERTY ENVIRONMENT_MODIFICATION
                 "ASAN_OPTIONS=string_append::detect_leaks=1:fast_unwind_on_malloc=0")
  endif()
  if(_labels)
    set_property(TEST ${_t} APPEND PROPERTY LABELS ${_labels})
    set_property(TEST ${_t} PROPERTY FAIL_REGULAR_EXPRESSION "${_san_report}")
  endif()
endforeach()

# With a sanitizer, the UCX transport on one node (every peer through UCX, as between nodes), with the progress
# thread that runs UCX's put handler while the application waits: the put-then-wait pattern under TSan.
function(_gshmem_san_ucx_test name exe labels env)
  gshmem_mpiexec_command(_cmd 2 $<TARGET_FILE:${exe}>)
  add_test(NAME ${name} COMMAND ${_cmd})
  set_tests_properties(${name} PROPERTIES TIMEOUT 180 LABELS "mpi;ucx;np2;${labels}" PROCESSORS 2
                       FAIL_REGULAR_EXPRESSION "${_san_report}"
                       ENVIRONMENT "GSHMEM_SYMMETRIC_SIZE=${GSHMEM_TEST_SYMMETRIC_SIZE};GSHMEM_TRANSPORTS=ucx;${env}")
endfunction()
if(GSHMEM_SANITIZE AND GSHMEM_HAVE_UCX)
  _gshmem_san_ucx_test(san_ucx.pe_rma.np2 pe_rma asan "GSHMEM_TEST_WATCHDOG_S=170")
  _gshmem_san_ucx_test(san_ucx.pe_threads.np2 pe_threads "asan;tsan" "GSHMEM_TEST_WATCHDOG_S=170")
  _gshmem_san_ucx_test(san_ucx.pe_wait.progress_thread.np2 pe_wait "asan;tsan"
                       "GSHMEM_PROGRESS_THREAD=1;GSHMEM_TEST_WATCHDOG_S=170")
endif()
