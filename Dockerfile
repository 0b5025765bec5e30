# subweave in a container: built with the official Swift image, run on slim Debian.
#
#   docker build -t subweave .
#   docker run --rm --user "$(id -u):$(id -g)" -v "$PWD/hls:/hls" subweave \
#     package /hls/master.m3u8 --subtitle url=/hls/en.srt,language=en
#
# The image runs as uid 10001 unless told otherwise, which cannot write into a mounted folder it
# does not own: run it as the folder's owner (--user), or give the folder to 10001.
#
# The binary links the Swift runtime and Foundation statically, so the runtime image needs no
# Swift toolchain: only libxml2 (TTML, through FoundationXML), libcurl with ca-certificates for
# http(s) sources (libcurl is loaded when a URL is first read), and ffmpeg, which decodes the
# programme's sound for `sync`, `package --check-sync` and `report --speech`.
FROM swift:6.3-bookworm AS build
RUN apt-get update && apt-get install -y --no-install-recommends libxml2-dev && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY Package.swift ./
COPY Sources ./Sources
COPY Examples/LibraryUse ./Examples/LibraryUse
COPY Tests ./Tests
RUN swift build -c release --static-swift-stdlib --product subweave \
 && cp "$(swift build -c release --static-swift-stdlib --product subweave --show-bin-path)/subweave" /subweave \
 && /subweave --manual > /subweave.1

FROM debian:bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates libcurl4 libxml2 ffmpeg \
 && rm -rf /var/lib/apt/lists/*
COPY --from=build /subweave /usr/local/bin/subweave
COPY --from=build /subweave.1 /usr/local/share/man/man1/subweave.1
RUN useradd --system --uid 10001 subweave
USER subweave
WORKDIR /hls
ENTRYPOINT ["/usr/local/bin/subweave"]
CMD ["--help"]
