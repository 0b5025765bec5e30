import Foundation

/// A complex fast Fourier transform of a power-of-two size: iterative radix-2 Cooley–Tukey,
/// decimation in time, in place on separate real and imaginary arrays.
///
/// Single precision is enough for what it is used for (cross-correlating activity signals of at
/// most a few million 10 ms frames): the peaks it finds are far above the rounding noise.
package struct FFT: Sendable {
    /// The number of points, a power of two.
    package let size: Int
    private let cosines: [Float]
    private let sines: [Float]

    /// A transform of `size` points; `size` is rounded up to a power of two (at least 2).
    package init(size: Int) {
        var n = 2
        while n < size { n <<= 1 }
        self.size = n
        let half = n / 2
        cosines = (0..<half).map { Float(Foundation.cos(-2 * Double.pi * Double($0) / Double(n))) }
        sines = (0..<half).map { Float(Foundation.sin(-2 * Double.pi * Double($0) / Double(n))) }
    }

    /// The forward transform, X[k] = Σ x[n]·e^(−2πikn/N), in place.
    package func forward(_ re: inout [Float], _ im: inout [Float]) {
        precondition(re.count == size && im.count == size)
        re.withUnsafeMutableBufferPointer { r in
            im.withUnsafeMutableBufferPointer { i in transform(r, i) }
        }
    }

    /// The inverse transform, x[n] = (1/N)·Σ X[k]·e^(2πikn/N), in place.
    package func inverse(_ re: inout [Float], _ im: inout [Float]) {
        // conj(FFT(conj(X))) / N
        for k in 0..<size { im[k] = -im[k] }
        forward(&re, &im)
        let scale = 1 / Float(size)
        for k in 0..<size {
            re[k] *= scale
            im[k] *= -scale
        }
    }

    private func transform(_ re: UnsafeMutableBufferPointer<Float>, _ im: UnsafeMutableBufferPointer<Float>) {
        let n = size
        // Bit-reversal permutation.
        var j = 0
        for i in 1..<n {
            var bit = n >> 1
            while j & bit != 0 {
                j ^= bit
                bit >>= 1
            }
            j |= bit
            if i < j {
                re.swapAt(i, j)
                im.swapAt(i, j)
            }
        }
        // Butterflies: stages of length 2, 4, … n.
        var length = 2
        while length <= n {
            let half = length / 2, step = n / length
            var start = 0
            while start < n {
                var t = 0
                for k in start..<start + half {
                    let wr = cosines[t], wi = sines[t]
                    let m = k + half
                    let xr = re[m] * wr - im[m] * wi
                    let xi = re[m] * wi + im[m] * wr
                    re[m] = re[k] - xr
                    im[m] = im[k] - xi
                    re[k] += xr
                    im[k] += xi
                    t += step
                }
                start += length
            }
            length <<= 1
        }
    }

    /// The cross-correlation r[k] = Σₙ a[n + k]·b[n] of two real signals, for every lag.
    ///
    /// The lags run from −(b.count − 1) through a.count − 1, returned as (lags, values) with values[i] at lag
    /// lags.lowerBound + i. Computed through the transform: O(N log N).
    package static func crossCorrelation(_ a: [Float], _ b: [Float]) -> (lags: ClosedRange<Int>, values: [Float]) {
        guard !a.isEmpty, !b.isEmpty else { return (0...0, [0]) }
        let fft = FFT(size: a.count + b.count)
        let n = fft.size
        // Both real signals in one complex transform: z = a + i·b.
        var re = [Float](repeating: 0, count: n), im = [Float](repeating: 0, count: n)
        for (index, value) in a.enumerated() { re[index] = value }
        for (index, value) in b.enumerated() { im[index] = value }
        fft.forward(&re, &im)
        // A[k] = (Z[k] + conj Z[N−k]) / 2, B[k] = (Z[k] − conj Z[N−k]) / 2i; the product
        // A[k]·conj(B[k]) is the transform of the correlation.
        var pr = [Float](repeating: 0, count: n), pi = [Float](repeating: 0, count: n)
        for k in 0..<n {
            let m = (n - k) & (n - 1)
            let ar = (re[k] + re[m]) / 2, ai = (im[k] - im[m]) / 2
            let br = (im[k] + im[m]) / 2, bi = -(re[k] - re[m]) / 2
            pr[k] = ar * br + ai * bi
            pi[k] = ai * br - ar * bi
        }
        re = []
        im = []
        fft.inverse(&pr, &pi)
        let lags = -(b.count - 1)...(a.count - 1)
        let values = lags.map { pr[$0 >= 0 ? $0 : n + $0] }
        return (lags, values)
    }
}
