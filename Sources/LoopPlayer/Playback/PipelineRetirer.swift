/// Stops the pipelines playlist switches replaced or dropped, on a thread of its own: joining a pipeline's
/// threads and closing its sound device takes tens of milliseconds (SDL joins its audio thread),
/// which on the engine's thread delayed the next item's second frame past its time (measured: 47 ms
/// late, dropped, at every switch to an item with a device of its own). Engine thread only; the
/// pipelines themselves are `Sendable`.
final class PipelineRetirer {
    /// What it stops: a pipeline, or a sound device no item holds (one kept for a later item).
    private enum Retiree: Sendable {
        case pipeline(MediaPipeline)
        case device(AudioOutput)

        func stop() {
            switch self {
            case let .pipeline(pipeline): pipeline.stop()
            case let .device(device): device.close()
            }
        }
    }

    private var queue = BoundedQueue<Retiree>(maxCount: 16)
    private var worker: WorkerThread?

    /// Stops `pipeline` soon, off this thread (at once here if the retirer has finished).
    func retire(_ pipeline: MediaPipeline) { stopSoon(.pipeline(pipeline)) }

    /// Closes `device` soon, off this thread.
    func close(_ device: AudioOutput) { stopSoon(.device(device)) }

    private func stopSoon(_ retiree: Retiree) {
        if worker == nil {
            worker = WorkerThread(name: "lp-retire") { [queue] in
                while let retiree = queue.pop() { retiree.stop() }
            }
        }
        if queue.push(retiree) != .queued { retiree.stop() }
    }

    /// Stops what is still queued and ends the thread (a later `retire` starts another).
    func finish() {
        guard let worker else { return }
        // What is still queued stops here, outside the queue's lock (closing would release it under it).
        while let retiree = queue.tryPop() { retiree.stop() }
        queue.close()
        worker.join()
        self.worker = nil
        queue = BoundedQueue<Retiree>(maxCount: 16)
    }

    deinit { finish() }
}
