#!/usr/bin/env python3
"""Checks that the folders of a Swift module are layered: every use points down.

    python3 Scripts/check-layering.py [Sources/Subweave …] [-v]

A folder uses another when one of its files names a type, a top-level function, or a member that
an extension declares (a name declared once in the module, used after a dot) that the other
declares. The order of the folders is the ``LAYERS`` list below, bottom first: a folder may use
only folders below it. A use that points up, a folder the list does not name, or a cycle makes
the check fail with each offending use (file and name). A file-system call (open, pread, rename,
FileManager…) in the library fails it too: files are touched only through the Platform target.
It reads the source text, so it errs
towards finding uses (a name in a string or comment is left out; a name two folders declare is
not counted).
"""
import collections, os, re, sys

LAYERS = {
    "Sources/Subweave": [
        # The words every layer shares: errors and what they say, warnings, progress, settings' names, read limits.
        "Vocabulary",
        # Reading input: local paths and URLs, with limits.
        "Input",
        # Reading the text of subtitle pictures (Tesseract, run as a process).
        "Recognition",
        # Where renditions live beside the master, what they are named, their records.
        "Layout",
        # The master, its reference variant and the programme's timeline.
        "Presentation",
        # Side-loaded tracks: descriptors, reading and ingesting subtitle files.
        "Tracks",
        # In-band captions and caption files: scanning, services, settings (named apart from the
        # Captions module it builds on).
        "CaptionServices",
        # What a run is asked to do.
        "Request",
        # What the operator said of a title, kept between runs.
        "Intent",
        # The report of a run.
        "Reports",
        # The master's rules: rewriting it, groups, DEFAULT and AUTOSELECT, CLOSED-CAPTIONS.
        "Rules",
        # Sidecars against the programme's speech (the Sync module holds the pure stages).
        "SyncCheck",
        # Writing renditions and the master.
        "Output",
        # What earlier runs left: listing, removing, retiming, fingerprints.
        "Lifecycle",
        # A package run: planning and writing.
        "Packaging",
        # The commands built on packaging: catalogues, live follow, inspection, validation.
        "Catalogue", "Live", "Inspection", "Validation",
    ],
    "Sources/TimedText": [
        # The cue, its text's markup (WebVTT's, the neutral form today), character references,
        # control characters, the segmenter, the errors and warnings readers share.
        "Cues",
        # Text encodings: decoding, detection, code pages.
        "Encoding",
        # One folder per format, each on the cue.
        "WebVTT",
        # SubRip's markup (colours, escapes) is also what TTML and ASS map theirs to.
        "SubRip", "TTML", "ASS", "EBUSTL",
    ],
}

DECL = re.compile(r"^(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|private|fileprivate|final|indirect|nonisolated)\s+)*"
                  r"(?:struct|enum|class|protocol|actor|typealias)\s+([A-Z]\w*)", re.M)
TOP_FUNC = re.compile(r"^(?:(?:public|package|internal)\s+)*func\s+(\w+)", re.M)
MEMBER = re.compile(r"^\s+(?:@\w+\s+)*(?:(?:public|package|internal|static|mutating|nonisolated|override)\s+)*(?:func|var|let)\s+(\w+)", re.M)
TOKEN = re.compile(r"(\.?)\b([A-Za-z_]\w*)\b")


def strip(text):
    text = re.sub(r"//.*", "", text)
    return re.sub(r'"(?:[^"\\\n]|\\.)*"', '""', text)


def extension_members(text):
    """Names of members declared inside `extension X {` blocks (by brace depth)."""
    names = []
    depth, inside = 0, None
    for line in text.split("\n"):
        if inside is None and re.match(r"^(?:(?:public|package)\s+)?extension\s", line):
            inside = depth
        m = MEMBER.match(line)
        if inside is not None and m and depth == inside + 1:
            names.append(m.group(1))
        depth += line.count("{") - line.count("}")
        if inside is not None and depth <= inside:
            inside = None
    return names


def check(root, verbose):
    files = {}
    for folder, _, names in os.walk(root):
        for name in names:
            if name.endswith(".swift"):
                path = os.path.join(folder, name)
                rel = os.path.relpath(path, root)
                files[path] = (rel.split("/")[0] if "/" in rel else ".", strip(open(path, encoding="utf-8").read()))
    types, members = collections.defaultdict(set), collections.defaultdict(set)
    for path, (folder, text) in files.items():
        for m in DECL.finditer(text):
            types[m.group(1)].add(folder)
        for m in TOP_FUNC.finditer(text):
            types[m.group(1)].add(folder)
        for name in extension_members(text):
            members[name].add(folder)
    all_members = collections.Counter()
    for path, (folder, text) in files.items():
        for m in MEMBER.finditer(text):
            all_members[m.group(1)] += 1
    uses = collections.defaultdict(lambda: collections.defaultdict(set))
    for path, (folder, text) in files.items():
        for dot, name in set(TOKEN.findall(text)):
            owners = types.get(name) if not dot else (members.get(name) if all_members[name] == 1 else None)
            if owners and len(owners) == 1:
                (owner,) = owners
                if owner != folder:
                    uses[folder][owner].add(f"{os.path.basename(path)}: {dot}{name}")
    order = LAYERS.get(os.path.normpath(root))
    problems = []
    folders = {f for f, _ in files.values()}
    if order is None:
        problems.append(f"{root}: no layer order is listed for it in {__file__}")
        order = []
    rank = {name: i for i, name in enumerate(order)}
    # The commands on top share one rank: none of them may use another.
    top = {"Catalogue", "Live", "Inspection", "Validation"}
    for name in top & set(rank):
        rank[name] = min(rank[t] for t in top if t in rank)
    for folder in sorted(folders - set(rank) - {"."}):
        problems.append(f"{root}/{folder}: not in the layer order; add it where it belongs")
    for a in sorted(uses):
        for b in sorted(uses[a]):
            if a in rank and b in rank and rank[b] >= rank[a]:
                problems.append(f"{root}/{a} uses {b}, which is not below it: " + "; ".join(sorted(uses[a][b])[:8]))
    if verbose:
        for a in order:
            print(f"{a} -> " + ", ".join(f"{b} ({len(uses[a][b])})" for b in sorted(uses[a], key=lambda b: rank.get(b, -1))))
    return problems


# Calls that touch the file system directly: in the library they belong to the Platform target
# (FileSystem, OpenFile, FolderLock, Confinement), which fails with FileFailure.
FILE_CALLS = re.compile(r"(?<![\w.])(?:open|openat|pread|pwrite|flock|mkdir|rmdir|unlink|rename|opendir|readdir|lstat|fstat|stat|fsync|ftruncate)\(|"
                        r"FileManager\.default|Foundation\.(?:read|write|open|rename)\(")
FLOOR = {"Sources/Subweave": "Sources/Platform"}


def check_floor(root):
    """Uses of the file system's calls in `root`, whose files must go through the floor below it."""
    problems = []
    for folder, _, names in os.walk(root):
        for name in sorted(names):
            if not name.endswith(".swift"):
                continue
            path = os.path.join(folder, name)
            for number, line in enumerate(strip(open(path, encoding="utf-8").read()).split("\n"), 1):
                if line.lstrip().startswith("///"):
                    continue
                # A function of the library's own that has one of these names is declared, not called.
                calls = [m for m in FILE_CALLS.finditer(line) if not line[: m.start()].endswith("func ")]
                for m in calls[:1]:
                    problems.append(f"{path}:{number}: {m.group(0)} touches the file system; go through {FLOOR[root]} (FileSystem, OpenFile, FolderLock)")
    return problems


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("-")] or list(LAYERS)
    problems = [p for root in args for p in check(root, "-v" in sys.argv)]
    problems += [p for root in args if root in FLOOR for p in check_floor(root)]
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} layering problem(s)")
        return 1
    print("layered: every use points down (" + ", ".join(args) + "); the library touches files only through Platform")
    return 0


if __name__ == "__main__":
    sys.exit(main())
