// Helpers for checking that the page stays responsive while it works on a
// large table: a float64 .npy writer for test files, and a log of long
// main-thread tasks and gaps between animation frames. Used by
// tests/e2e/faults.test.mjs (a behaviour check) and tests/bench/check-freeze.mjs
// (the measurement).

/** A float64 .npy (version 1.0, C order) of `values`, shape (length, d). */
export function npyFile(values, length, d) {
  let header = `{'descr': '<f8', 'fortran_order': False, 'shape': (${length}, ${d}), }`;
  header = header.padEnd(Math.ceil((10 + header.length + 1) / 64) * 64 - 11) + '\n';
  const bytes = Buffer.alloc(10 + header.length + values.length * 8);
  Buffer.from([0x93, ...Buffer.from('NUMPY'), 1, 0]).copy(bytes);
  bytes.writeUInt16LE(header.length, 8);
  bytes.write(header, 10, 'latin1');
  Buffer.from(values.buffer, values.byteOffset, values.byteLength).copy(bytes, 10 + header.length);
  return bytes;
}

/** Starts recording long tasks and frame gaps in the page (window.freezeLog). */
export function startFreezeLog(page) {
  return page.evaluate(() => {
    const log = { tasks: [], gaps: [], stop: false };
    window.freezeLog = log;
    log.observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) log.tasks.push(entry.duration);
    });
    log.observer.observe({ type: 'longtask' });
    let last = performance.now();
    const tick = (now) => {
      log.gaps.push(now - last);
      last = now;
      if (!log.stop) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
}

/** Stops the log: { longestTask, longTaskTotal, longTasks, longestGap } in ms. */
export function stopFreezeLog(page) {
  return page.evaluate(
    () =>
      new Promise((resolve) => {
        // The last tasks' entries are delivered asynchronously: one more frame.
        requestAnimationFrame(() =>
          setTimeout(() => {
            const log = window.freezeLog;
            log.stop = true;
            log.observer.disconnect();
            resolve({
              longestTask: Math.max(0, ...log.tasks),
              longTaskTotal: log.tasks.reduce((a, b) => a + b, 0),
              longTasks: log.tasks.length,
              longestGap: Math.max(0, ...log.gaps),
            });
          }, 50),
        );
      }),
  );
}
