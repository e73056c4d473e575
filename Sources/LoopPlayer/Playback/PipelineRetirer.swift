/// Stops the pipelines playlist switches replaced or dropped, on a thread of its own: joining a
/// pipeline's threads takes milliseconds, which on the engine's thread delayed the next item's
/// second frame past its time (measured when each item closed its own sound device: 47 ms late,
/// dropped, at every switch). Engine thread only; the pipelines themselves are `Sendable`.
final class PipelineRetirer {
    private var queue = BoundedQueue<MediaPipeline>(maxCount: 16)
    private var worker: WorkerThread?

    /// Stops `pipeline` soon, off this thread (at once here if the retirer has finished).
    func retire(_ pipeline: MediaPipeline) {
        if worker == nil {
            worker = WorkerThread(name: "lp-retire") { [queue] in
                while let pipeline = queue.pop() { pipeline.stop() }
            }
        }
        if queue.push(pipeline) != .queued { pipeline.stop() }
    }

    /// Stops what is still queued and ends the thread (a later `retire` starts another).
    func finish() {
        guard let worker else { return }
        // What is still queued stops here, outside the queue's lock (stopping would release it under it).
        while let pipeline = queue.tryPop() { pipeline.stop() }
        queue.close()
        worker.join()
        self.worker = nil
        queue = BoundedQueue<MediaPipeline>(maxCount: 16)
    }

    deinit { finish() }
}
