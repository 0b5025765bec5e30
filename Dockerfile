# subweave in a container: built with the official Swift image, run on slim Debian.
#
#   docker build -t subweave .
#   docker run --rm -v "$PWD/hls:/hls" subweave package /hls/master.m3u8 --subtitle url=/hls/en.srt,language=en
#
# The binary links the Swift runtime and Foundation statically, so the runtime image needs no
# Swift toolchain: only libxml2 (TTML, through FoundationXML), and libcurl with ca-certificates for
# http(s) sources (libcurl is loaded when a URL is first read).
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
 && apt-get install -y --no-install-recommends ca-certificates libcurl4 libxml2 \
 && rm -rf /var/lib/apt/lists/*
COPY --from=build /subweave /usr/local/bin/subweave
COPY --from=build /subweave.1 /usr/local/share/man/man1/subweave.1
RUN useradd --system --uid 10001 subweave
USER subweave
WORKDIR /hls
ENTRYPOINT ["/usr/local/bin/subweave"]
CMD ["--help"]
