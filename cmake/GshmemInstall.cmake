# Install rules for libgshmem, headers, CMake package, pkg-config file and compiler wrappers.
# (Filled in by the build/release owner; must exist for configure to succeed.)
