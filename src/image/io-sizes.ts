// Chunk sizes of blob file IO, in one place because they were measured together: on this project's
// 2-core VM (Linux 6.18, ext4), 512 MiB images of 4 layers, interleaved runs, medians.

/**
 * What the pull's sink buffers while a write is in flight, and so the size of one writev. Batches
 * of up to 4 MiB cost 1.1-1.2 s of kernel time in the page-cache copy, batches of 512 KiB 0.5 s (as
 * much as skopeo's 32 KiB writes), and the pull's wall time fell with it. Still 8 socket reads per
 * syscall.
 */
export const WRITE_BATCH = 512 << 10;

/**
 * Reads of blob files, and so the writes of a docker-archive pull, which copies each blob into the
 * tar one read at a time. Writing a 512 MiB archive (wall / kernel CPU, medians of 10-12): 1 MiB
 * 0.29 / 0.25 s; 512 KiB 0.34 / 0.25 s; 256 KiB 0.37 / 0.28 s; 4 MiB 0.66 / 0.66 s. Single writes
 * smaller than 1 MiB save no kernel time here (unlike writev batches) and cost more calls.
 */
export const READ_CHUNK = 1 << 20;
