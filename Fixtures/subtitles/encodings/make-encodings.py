#!/usr/bin/env python3
"""Writes the encoding-detection corpus: one SubRip file per language and legacy encoding, with
sentences in that language (no byte order mark, not UTF-8), named <language>.<encoding>.srt.
EncodingDetectionTests reads each without saying its encoding and expects the encoding in its name.

    python3 Fixtures/subtitles/encodings/make-encodings.py
"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))

TEXTS = {
    ("czech", "cp1250"): ["Dobrý den, jak se máte?", "Včera jsem byl v Praze a koupil jsem si nové boty.",
                          "Řekni mi, proč jsi přišel tak pozdě.", "To je příliš drahé, nemůžu si to dovolit.",
                          "Tři sta třicet tři stříbrných křepelek přeletělo přes tři sta třicet tři stříbrných střech."],
    ("polish", "cp1250"): ["Dzień dobry, jak się masz?", "Wczoraj byłem w sklepie i kupiłem chleb.",
                           "Zażółć gęślą jaźń, powiedział nauczyciel.", "Nie wiem, co się stało z moją książką.",
                           "Proszę usiąść i poczekać chwilę."],
    ("hungarian", "cp1250"): ["Jó napot kívánok, hogy van?", "Tegnap elmentem a boltba és vettem kenyeret.",
                              "Árvíztűrő tükörfúrógép a műhelyben.", "Nem tudom, hová tettem a kulcsaimat.",
                              "Köszönöm szépen a segítségét."],
    ("croatian", "cp1250"): ["Dobar dan, kako ste?", "Jučer sam bio u gradu i kupio sam kruh.",
                             "Ne znam što se dogodilo s mojom knjigom.", "Molim vas, sjednite i pričekajte.",
                             "Čovjek je došao kući kasno navečer, ljut i umoran."],
    ("russian", "cp1251"): ["Добрый день, как у вас дела?", "Вчера я был в магазине и купил хлеб.",
                            "Я не знаю, что случилось с моей книгой.", "Пожалуйста, садитесь и подождите немного.",
                            "Съешь же ещё этих мягких французских булок, да выпей чаю."],
    ("russian", "koi8_r"): ["Добрый день, как у вас дела?", "Вчера я был в магазине и купил хлеб.",
                            "Я не знаю, что случилось с моей книгой.", "Пожалуйста, садитесь и подождите немного.",
                            "Съешь же ещё этих мягких французских булок, да выпей чаю."],
    ("ukrainian", "cp1251"): ["Добрий день, як справи?", "Вчора я був у магазині і купив хліб.",
                              "Я не знаю, що сталося з моєю книжкою.", "Будь ласка, сідайте і зачекайте.",
                              "Чуєш їх, доцю, га? Кумедна ж ти, прощайся без ґольфів!"],
    ("bulgarian", "cp1251"): ["Добър ден, как сте?", "Вчера бях в магазина и купих хляб.",
                              "Не знам какво стана с моята книга.", "Моля, седнете и почакайте малко.",
                              "Жълтата дюля беше щастлива, че пухът, който цъфна, замръзна като гьон."],
    ("french", "cp1252"): ["Bonjour, comment ça va ?", "Hier, je suis allé au marché et j'ai acheté du pain.",
                           "Je ne sais pas ce qui est arrivé à mon livre.", "Asseyez-vous, s'il vous plaît, et attendez un peu.",
                           "Où est la gare ? C'est très loin d'ici, à côté de l'église."],
    ("german", "cp1252"): ["Guten Tag, wie geht es Ihnen?", "Gestern war ich im Geschäft und habe Brot gekauft.",
                           "Ich weiß nicht, was mit meinem Buch passiert ist.", "Bitte setzen Sie sich und warten Sie kurz.",
                           "Zwölf Boxkämpfer jagen Viktor quer über den großen Sylter Deich."],
    ("spanish", "cp1252"): ["Buenos días, ¿cómo está usted?", "Ayer fui a la tienda y compré pan.",
                            "No sé qué le pasó a mi libro.", "Por favor, siéntese y espere un momento.",
                            "El pingüino Wenceslao hizo kilómetros bajo exhaustiva lluvia y frío, añoraba a su querido cachorro."],
    ("portuguese", "cp1252"): ["Bom dia, como você está?", "Ontem fui à loja e comprei pão.",
                               "Não sei o que aconteceu com o meu livro.", "Por favor, sente-se e espere um pouco.",
                               "À noite, vovô Kowalsky vê o ímã cair no pé do pingüim queixoso e vovó põe açúcar no chá de tâmaras."],
    ("swedish", "cp1252"): ["God dag, hur mår du?", "I går var jag i affären och köpte bröd.",
                            "Jag vet inte vad som hände med min bok.", "Var så god och sitt ner och vänta lite.",
                            "Flygande bäckasiner söka hwila på mjuka tuvor."],
    ("greek", "cp1253"): ["Καλημέρα, τι κάνετε;", "Χθες πήγα στο μαγαζί και αγόρασα ψωμί.",
                          "Δεν ξέρω τι έγινε με το βιβλίο μου.", "Παρακαλώ, καθίστε και περιμένετε λίγο.",
                          "Ξεσκεπάζω την ψυχοφθόρα βδελυγμία."],
    ("turkish", "cp1254"): ["İyi günler, nasılsınız?", "Dün markete gittim ve ekmek aldım.",
                            "Kitabıma ne olduğunu bilmiyorum.", "Lütfen oturun ve biraz bekleyin.",
                            "Pijamalı hasta yağız şoföre çabucak güvendi."],
    ("hebrew", "cp1255"): ["שלום, מה שלומך?", "אתמול הלכתי לחנות וקניתי לחם.",
                           "אני לא יודע מה קרה לספר שלי.", "בבקשה, שב וחכה רגע.",
                           "דג סקרן שט בים מאוכזב ולפתע מצא חברה."],
    ("arabic", "cp1256"): ["مرحبا، كيف حالك؟", "ذهبت أمس إلى المتجر واشتريت الخبز.",
                           "لا أعرف ماذا حدث لكتابي.", "من فضلك، اجلس وانتظر قليلا.",
                           "صِف خَلقَ خَودِ كَمِثلِ الشَمسِ إِذ بَزَغَت."],
    ("chinese-simplified", "gb18030"): ["你好，你今天怎么样？", "昨天我去商店买了一些面包。",
                                        "我不知道我的书发生了什么事。", "请坐下来，等一会儿。",
                                        "他们说这个地方很好，我们明天一起去看看吧。"],
    ("chinese-traditional", "big5"): ["你好，你今天怎麼樣？", "昨天我去商店買了一些麵包。",
                                      "我不知道我的書發生了什麼事。", "請坐下來，等一會兒。",
                                      "他們說這個地方很好，我們明天一起去看看吧。"],
    ("japanese", "shift_jis"): ["こんにちは、お元気ですか？", "昨日、店に行ってパンを買いました。",
                                "私の本に何が起こったのか分かりません。", "どうぞ座って、少し待ってください。",
                                "いろはにほへと ちりぬるを わかよたれそ つねならむ"],
    ("korean", "euc_kr"): ["안녕하세요, 어떻게 지내세요?", "어제 가게에 가서 빵을 샀어요.",
                           "제 책에 무슨 일이 있었는지 모르겠어요.", "앉아서 잠시 기다려 주세요.",
                           "다람쥐 헌 쳇바퀴에 타고파."],
}


def srt(lines):
    out = []
    for i, line in enumerate(lines):
        start, end = 1 + i * 3, 3 + i * 3
        out.append(f"{i + 1}\r\n00:00:{start:02d},000 --> 00:00:{end:02d},500\r\n{line}\r\n")
    return "\r\n".join(out)


for (language, codec), lines in TEXTS.items():
    data = srt(lines).encode(codec)
    try:
        data.decode("utf-8")
        raise SystemExit(f"{language}.{codec} is valid UTF-8: not a test of detection")
    except UnicodeDecodeError:
        pass
    with open(os.path.join(HERE, f"{language}.{codec}.srt"), "wb") as f:
        f.write(data)
