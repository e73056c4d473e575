#ifndef LP_BUILD_INFO_H
#define LP_BUILD_INFO_H

/// The commit this binary was built from (`git rev-parse --short=10`, `-dirty` with local changes),
/// or "" when the build was not told (a plain `swift build`): scripts/package-deb.sh writes
/// `build_commit.h` for its build alone.
const char *lp_build_commit(void);

#endif
