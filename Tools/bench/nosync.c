/* For Tools/bench/ceiling.sh only: preloaded into a benchmark server to turn fsync and fdatasync into no-ops,
 * so that a run shows what the server costs without waiting for the disk. Never for a server that keeps data. */
int fsync(int fd) { (void)fd; return 0; }
int fdatasync(int fd) { (void)fd; return 0; }
