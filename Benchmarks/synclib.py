"""What the sync benchmarks share: programmes with speech at known times, SubRip files, scoring.

A programme is made here: a speech synthesizer (espeak-ng in many voices and languages, flite,
festival's HTS voice) or a human voice (the recordings alsa-utils ships) speaks sentences at known
times over 16 kHz mono sound, with a silent intro, a music bed (a sustained chord with a slow
swell), a noise bed, or a stretch of music without speech; ffmpeg muxes it with a test-pattern
video into an HLS presentation (6 s TS segments), optionally on a media timeline that starts later.
The truth is a cue per sentence: its sound's onset and end.
"""
import hashlib, os, random, shutil, subprocess, tempfile, time, wave

import numpy as np

RATE = 16000
FILM = 24000 / 1001
CACHE = os.path.join(tempfile.gettempdir(), "subweave-speech-cache")

SENTENCES = {
    "en": [
        "The morning train left the station exactly on time.", "Nobody on the platform noticed the small brown dog.",
        "It followed a woman in a green coat onto the last carriage.", "At the next stop a conductor asked for tickets.",
        "The dog sat quietly under a seat and watched the fields.", "Outside the window the river turned toward the hills.",
        "A boy with a kite waved at the passing carriages.", "The woman opened a newspaper and read about the weather.",
        "Rain was expected in the afternoon across the valley.", "She folded the paper and looked for her umbrella.",
        "The dog yawned and rested its head on her shoe.", "When the train reached the city the sky was grey.",
        "Porters pushed their carts along the crowded platform.", "The woman stepped down and the dog followed her again.",
        "She laughed and bought it a sandwich from a stall.", "They walked together toward the bridge over the water.",
    ],
    "fr": [
        "Le train du matin a quitté la gare à l'heure.", "Personne sur le quai n'a remarqué le petit chien brun.",
        "Il a suivi une femme en manteau vert jusqu'au dernier wagon.", "Au prochain arrêt un contrôleur a demandé les billets.",
        "Le chien s'est assis sous un siège et regardait les champs.", "Dehors la rivière tournait vers les collines.",
        "Un garçon avec un cerf-volant saluait les wagons.", "La femme a ouvert un journal et a lu la météo.",
    ],
    "de": [
        "Der Zug fuhr pünktlich am Morgen aus dem Bahnhof.", "Niemand auf dem Bahnsteig bemerkte den kleinen Hund.",
        "Er folgte einer Frau im grünen Mantel in den letzten Wagen.", "An der nächsten Station kam ein Schaffner vorbei.",
        "Der Hund saß still unter dem Sitz und sah auf die Felder.", "Draußen bog der Fluss langsam zu den Hügeln ab.",
        "Ein Junge mit einem Drachen winkte dem Zug zu.", "Die Frau las in der Zeitung vom Wetter am Nachmittag.",
    ],
    "es": [
        "El tren de la mañana salió de la estación a su hora.", "Nadie en el andén vio al pequeño perro marrón.",
        "Siguió a una mujer de abrigo verde hasta el último vagón.", "En la siguiente parada un revisor pidió los billetes.",
        "El perro se sentó bajo un asiento y miraba los campos.", "Fuera el río giraba hacia las colinas.",
        "Un niño con una cometa saludaba a los vagones.", "La mujer abrió un periódico y leyó sobre el tiempo.",
    ],
    "it": [
        "Il treno del mattino partì dalla stazione in orario.", "Nessuno sul binario notò il piccolo cane marrone.",
        "Seguì una donna con un cappotto verde fino all'ultima carrozza.", "Alla fermata seguente un controllore chiese i biglietti.",
        "Il cane si sedette sotto un sedile e guardava i campi.", "Fuori il fiume girava verso le colline.",
    ],
    "pt": [
        "O comboio da manhã saiu da estação à hora certa.", "Ninguém na plataforma reparou no pequeno cão castanho.",
        "Seguiu uma mulher de casaco verde até à última carruagem.", "Na paragem seguinte um revisor pediu os bilhetes.",
        "O cão sentou-se debaixo de um banco e olhava os campos.", "Lá fora o rio virava em direção às colinas.",
    ],
    "other": [
        "Preheat the oven and grease a round baking tin.", "Mix the flour, the sugar and a pinch of salt.",
        "Beat three eggs with a cup of warm milk.", "Pour the batter into the tin and smooth the top.",
        "Bake for forty minutes until the crust is golden.", "Let it cool before you cut the first slice.",
        "Serve it with fresh berries and a spoon of cream.", "Keep what is left in a tin for two days.",
    ],
    # What the human voice of alsa-utils says, a recording each.
    "human": ["Front Center", "Front Left", "Front Right", "Rear Center", "Rear Left", "Rear Right", "Side Left", "Side Right"],
}


def _read_wav(path):
    with wave.open(path) as w:
        rate, channels = w.getframerate(), w.getnchannels()
        data = np.frombuffer(w.readframes(w.getnframes()), dtype=np.int16).astype(np.float64)
    if channels > 1:
        data = data.reshape(-1, channels).mean(axis=1)
    return rate, data


def speak(text, voice="en", engine="espeak"):
    """`text` spoken, 16 kHz, trimmed of the silence around it; cached on disk by engine, voice
    and text. Engines: espeak (`voice` an espeak-ng voice such as en, fr, en-us+f3), flite,
    festival (the US English HTS voice), human (a phrase of `SENTENCES["human"]`)."""
    os.makedirs(CACHE, exist_ok=True)
    key = f"{engine}-{voice}-" + hashlib.sha1(text.encode()).hexdigest()[:16] + ".npy"
    cached = os.path.join(CACHE, key)
    if os.path.exists(cached):
        return np.load(cached)
    with tempfile.NamedTemporaryFile(suffix=".wav") as f:
        if engine == "espeak":
            subprocess.run(["espeak-ng", "-v", voice, "-s", "165", "-w", f.name, text], check=True)
        elif engine == "flite":
            subprocess.run(["flite", "-t", text, "-o", f.name], check=True)
        elif engine == "festival":
            subprocess.run(["text2wave", "-eval", "(voice_cmu_us_slt_arctic_hts)", "-o", f.name], input=text.encode(), check=True,
                           stderr=subprocess.DEVNULL)
        elif engine == "human":
            shutil.copy(f"/usr/share/sounds/alsa/{text.replace(' ', '_')}.wav", f.name)
        else:
            raise ValueError(engine)
        rate, data = _read_wav(f.name)
    # Resample to 16 kHz (linear) and cut the silence around the sound.
    x = np.interp(np.arange(0, len(data), rate / RATE), np.arange(len(data)), data)
    loud = np.nonzero(np.abs(x) > 0.01 * np.abs(x).max())[0] if len(x) else []
    x = x[loud[0]:loud[-1] + 1] if len(loud) else x
    # Every voice at the same level.
    x = x * (12000 / max(1.0, np.abs(x).max()))
    np.save(cached, x.astype(np.float32))
    return x.astype(np.float32)


def programme(work, name, sentences, voice, minutes, intro=3.0, bed=None, start_pts=0.0, seed=1, shuffle=False,
              video=("160x90", "25", []), audio=("64k", 1), engine="espeak", spacing="irregular", whole=True, truth_only=False):
    """An HLS programme of `sentences` repeated to fill `minutes` (in a random order when
    `shuffle`), spoken by `engine`/`voice`; `spacing` irregular (pauses of 0.5-2.5 s), dense
    (0.25-0.45 s), or even (a sentence every 4 s); `bed` None, music, noise, loudmusic, loudnoise
    (a bed about as loud as the voice) or musicgap (30 s of music and no speech in the middle); `video` is (size, rate, extra x264 options), `audio`
    (bitrate, channels). Returns (master, truth cues: (start, end, text, index)); with
    `truth_only`, (None, truth cues) and nothing is written."""
    rnd = random.Random(seed)
    total = minutes * 60
    sound = np.zeros(int(total * RATE), dtype=np.float32)
    truth, t, i = [], intro, 0
    gap = (0.4 * total, 0.4 * total + 30) if bed == "musicgap" else None
    while True:
        text = rnd.choice(sentences) if shuffle else sentences[i % len(sentences)]
        clip = speak(text, voice, engine)
        length = len(clip) / RATE
        if spacing == "even" and length > 3.6:
            i += 1
            continue
        if gap and gap[0] <= t + length and t < gap[1]:
            t = gap[1]
        if t + length > total - 2:
            break
        start = int(t * RATE)
        sound[start:start + len(clip)] += clip
        truth.append((t, t + length, text, len(truth)))
        if spacing == "even":
            t += 4.0
        elif spacing == "dense":
            t += length + rnd.uniform(0.25, 0.45)
        else:
            t += length + rnd.uniform(0.5, 2.5)
        i += 1
    if truth_only:
        return None, truth
    n = np.arange(len(sound)) / RATE
    if bed in ("music", "musicgap", "loudmusic"):
        chord = sum(np.sin(2 * np.pi * f * n) for f in (196.0, 246.9, 293.7, 392.0))
        level = (4000 if bed == "loudmusic" else 1500) * (0.7 + 0.3 * np.sin(2 * np.pi * 0.1 * n))
        if bed == "musicgap":
            level = np.where((n >= gap[0]) & (n < gap[1]), 4000, 0)
        sound += (level * chord).astype(np.float32)
    elif bed in ("noise", "loudnoise"):
        sound += np.random.default_rng(seed).normal(0, 2500 if bed == "loudnoise" else 700, len(sound)).astype(np.float32)
    folder = os.path.join(work, name)
    os.makedirs(folder)
    wav = os.path.join(folder, "sound.wav")
    with wave.open(wav, "wb") as w:
        w.setnchannels(1); w.setsampwidth(2); w.setframerate(RATE)
        w.writeframes(np.clip(sound, -32767, 32767).astype(np.int16).tobytes())
    offset = ["-output_ts_offset", str(start_pts)] if start_pts else []
    size, fps, x264 = video
    subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", f"testsrc2=size={size}:rate={fps}",
                    "-i", wav, "-t", str(total), "-map", "0:v", "-map", "1:a", "-c:v", "libx264", "-preset", "ultrafast", "-g", str(2 * int(fps))]
                   + x264 + ["-c:a", "aac", "-b:a", audio[0], "-ac", str(audio[1]), "-ar", "48000"] + offset + ["-f", "hls", "-hls_time", "6", "-hls_playlist_type", "vod",
                   "-hls_segment_filename", os.path.join(folder, "seg_%03d.ts"), os.path.join(folder, "prog.m3u8")], check=True)
    os.remove(wav)
    with open(os.path.join(folder, "master.m3u8"), "w") as f:
        f.write('#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=400000,CODECS="avc1.64000d,mp4a.40.2",RESOLUTION=160x90\nprog.m3u8\n')
    if whole:
        # One file of the whole programme for ffsubsync, which reads a media file.
        with open(os.path.join(folder, "whole.ts"), "wb") as out:
            for seg in sorted(p for p in os.listdir(folder) if p.endswith(".ts") and p.startswith("seg_")):
                with open(os.path.join(folder, seg), "rb") as s:
                    shutil.copyfileobj(s, out)
    return os.path.join(folder, "master.m3u8"), truth


def srt_time(t):
    ms = max(0, int(round(t * 1000)))
    return f"{ms // 3600000:02d}:{ms // 60000 % 60:02d}:{ms // 1000 % 60:02d},{ms % 1000:03d}"


def write_srt(path, cues):
    with open(path, "w") as f:
        for k, (a, b, text, *_) in enumerate(cues, 1):
            f.write(f"{k}\n{srt_time(a)} --> {srt_time(b)}\n{text}\n\n")


def read_srt(path):
    cues = []
    for block in open(path, encoding="utf-8", errors="replace").read().replace("\r\n", "\n").split("\n\n"):
        lines = [l for l in block.split("\n") if l.strip()]
        timing = next((l for l in lines if "-->" in l), None)
        if not timing:
            continue
        def sec(s):
            h, m, rest = s.strip().replace(".", ",").split(":")
            secs, ms = rest.split(",")
            return int(h) * 3600 + int(m) * 60 + int(secs) + int(ms) / 1000
        a, b = timing.split("-->")
        cues.append((sec(a), sec(b.split()[0]), " ".join(lines[lines.index(timing) + 1:])))
    return cues


def edited(truth, seed):
    """10 % of cues dropped, 10 % merged with the next, 10 % split in two (those lose their id)."""
    rnd = random.Random(seed)
    out, i = [], 0
    while i < len(truth):
        a, b, text, ident = truth[i]
        roll = rnd.random()
        if roll < 0.1:
            i += 1
            continue
        if roll < 0.2 and i + 1 < len(truth):
            out.append((a, truth[i + 1][1], text + " " + truth[i + 1][2], None))
            i += 2
            continue
        if roll < 0.3:
            mid = (a + b) / 2
            out += [(a, mid, text[: len(text) // 2], None), (mid, b, text[len(text) // 2:], None)]
        else:
            out.append((a, b, text, ident))
        i += 1
    return out


def within(fixed, reference, tolerance=0.1):
    """The share of the sidecar's unedited cues (`reference`: per sidecar cue, its true start and
    end, or None for a cue an editor merged or split) whose fixed cue (`fixed`, in the sidecar's
    order: both fixes keep every cue and its order) starts and ends within `tolerance`."""
    pairs = [(r, f) for r, f in zip(reference, fixed) if r is not None]
    good = sum(1 for (a, b), (x, y, *_) in pairs if abs(x - a) <= tolerance and abs(y - b) <= tolerance)
    counted = sum(1 for r in reference if r is not None)
    return good / counted if counted else 0


def timed(cmd):
    """(wall seconds, peak resident memory of that process alone in MiB — VmHWM from /proc, read
    every 10 ms until it exits; the decoders it starts are other processes — stdout, exit code)."""
    out = tempfile.TemporaryFile()
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.DEVNULL)
    peak = 0
    while proc.poll() is None:
        try:
            with open(f"/proc/{proc.pid}/status") as status:
                for line in status:
                    if line.startswith("VmHWM:"):
                        peak = max(peak, int(line.split()[1]))
        except OSError:
            pass
        time.sleep(0.01)
    wall = time.perf_counter() - start
    out.seek(0)
    return wall, peak / 1024, out.read().decode(errors="replace"), proc.returncode
