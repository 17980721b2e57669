# Runtime safety against bad addresses (safety.c), one case per run: "case|regex of the one-line error". Each bad
# call is made by PE 1 and must end the job with its line, not with a signal; the data it aimed at is not written
# (put_last_byte shows the last allocatable bytes are still reachable and written).
add_executable(bad_safety safety.c)
target_link_libraries(bad_safety PRIVATE gshmem)
set_target_properties(bad_safety PROPERTIES C_STANDARD 11 C_STANDARD_REQUIRED ON)
set(_safety_env "GSHMEM_SYMMETRIC_SIZE=1M;GSHMEM_TIMEOUT=30")
set(_hex "0x[0-9a-f]+")
set(_not_sym "is not in a symmetric region")
foreach(_c "put_bad_source|gshmem: PE 1: shmem_putmem: local source 0x1[0-9a-f][0-9a-f][0-9a-f] is not readable memory; pass"
           "put_nbi_bad_source|gshmem: PE 1: shmem_putmem_nbi: local source 0x1[0-9a-f][0-9a-f][0-9a-f] is not readable memory"
           "get_bad_dest|gshmem: PE 1: shmem_getmem: local dest 0x1[0-9a-f][0-9a-f][0-9a-f] is not writable memory; pass"
           "iput_bad_source|gshmem: PE 1: shmem_long_iput: local source 0x1[0-9a-f][0-9a-f][0-9a-f] is not readable memory"
           "put_signal_bad_source|gshmem: PE 1: shmem_putmem_signal: local source 0x1[0-9a-f][0-9a-f][0-9a-f] is not readable memory"
           "fetch_nbi_bad_fetch|gshmem: PE 1: shmem_long_atomic_fetch_nbi: local fetch 0x1000 is not writable memory"
           "put_control|gshmem: PE 1: shmem_putmem: dest ${_hex} \\(\\+8 bytes\\) ${_not_sym}"
           "put_straddle|gshmem: PE 1: shmem_putmem: dest ${_hex} \\(\\+8 bytes\\) ${_not_sym}"
           "get_control|gshmem: PE 1: shmem_getmem: source ${_hex} \\(\\+8 bytes\\) ${_not_sym}"
           "amo_control|gshmem: PE 1: shmem_long_atomic_add: dest ${_hex} \\(\\+8 bytes\\) ${_not_sym}"
           "signal_control|gshmem: PE 1: shmem_putmem_signal: sig_addr ${_hex} \\(\\+8 bytes\\) ${_not_sym}"
           "test_control|gshmem: PE 1: shmem_long_test: ivar ${_hex} \\(\\+8 bytes\\) ${_not_sym}"
           "bcast_control|gshmem: PE 1: shmem_broadcastmem: dest ${_hex} \\(\\+8 bytes\\) ${_not_sym}")
  string(REPLACE "|" ";" _parts "${_c}")
  list(GET _parts 0 _case)
  list(GET _parts 1 _regex)
  gshmem_mpiexec_command(_cmd 2 $<TARGET_FILE:bad_safety> ${_case})
  gshmem_add_expect_test(bad_safety.${_case} COMMAND ${_cmd} EXPECT_RC nonzero REGEX "${_regex}" TIMEOUT 60
                         REJECT_REGEX "the bad call returned|FAILURE|Segmentation|signal 11"
                         LABELS "mpi;bad_input" PROCESSORS 2 ENVIRONMENT "${_safety_env}")
endforeach()
# The last allocatable bytes: reachable, and written.
gshmem_mpiexec_command(_cmd 2 $<TARGET_FILE:bad_safety> put_last_byte)
gshmem_add_expect_test(bad_safety.put_last_byte COMMAND ${_cmd} EXPECT_RC zero REGEX "safety: PE 0: put_last_byte: SUCCESS"
                       REJECT_REGEX "FAILURE|gshmem: PE" TIMEOUT 60 LABELS "mpi;bad_input" PROCESSORS 2
                       ENVIRONMENT "${_safety_env}")
# shmem_ptr and shmem_addr_accessible refuse the control area and accept the last user bytes.
gshmem_mpiexec_command(_cmd 2 $<TARGET_FILE:bad_safety> ptr_control)
gshmem_add_expect_test(bad_safety.ptr_control COMMAND ${_cmd} EXPECT_RC zero REGEX "safety: PE 1: ptr_control: SUCCESS"
                       REJECT_REGEX "FAILURE|gshmem: PE" TIMEOUT 60 LABELS "mpi;bad_input" PROCESSORS 2
                       ENVIRONMENT "${_safety_env}")
# The program's own crash, outside any gshmem call, is a signal as before: the crashing PE prints no gshmem line.
# Its partner may report it lost ("gshmem: PE 0: lost PE 1 (... killed or crashed)") if it sees it first.
gshmem_mpiexec_command(_cmd 2 $<TARGET_FILE:bad_safety> user_crash)
gshmem_add_expect_test(bad_safety.user_crash COMMAND ${_cmd} EXPECT_RC nonzero REGEX "signal 11|Segmentation fault"
                       REJECT_REGEX "gshmem: PE 1|gshmem: PE 0: [^l]|the bad call returned" TIMEOUT 60
                       LABELS "mpi;bad_input" PROCESSORS 2
                       ENVIRONMENT "${_safety_env}")

# Files read at init are bounded (base/config.hpp fileReadBounded): a profile that is a device, a FIFO or too
# large is refused at once with a line naming it, instead of growing memory or waiting for a writer.
set(_fifo ${CMAKE_CURRENT_BINARY_DIR}/safety_profile.fifo)
set(_huge ${CMAKE_CURRENT_BINARY_DIR}/safety_profile.huge)
foreach(_c "dev_zero|/dev/zero|true|is a character device, not a regular file"
           "fifo|${_fifo}|rm -f ${_fifo} && mkfifo ${_fifo}|is a FIFO, not a regular file"
           "huge|${_huge}|truncate -s 5M ${_huge}|is [0-9]+ bytes, over the 4 MiB limit")
  string(REPLACE "|" ";" _parts "${_c}")
  list(GET _parts 0 _case)
  list(GET _parts 1 _path)
  list(GET _parts 2 _setup)
  list(GET _parts 3 _regex)
  gshmem_mpiexec_command(_cmd 2 $<TARGET_FILE:bad_init_only>)
  gshmem_add_expect_test(bad_safety.profile_${_case} COMMAND sh -c "${_setup} && exec \"$@\"" sh ${_cmd}
                         EXPECT_RC nonzero REGEX "gshmem: PE [0-9]+: shmem_init: .*the profile ${_path} ${_regex}"
                         REJECT_REGEX "shmem_init returned" TIMEOUT 60 LABELS "mpi;bad_input" PROCESSORS 2
                         ENVIRONMENT "${_safety_env};GSHMEM_PROFILE=${_path}")
endforeach()
