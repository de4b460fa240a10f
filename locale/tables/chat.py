"""Strings of the chat app (game messages): models, refusals and templates/chat."""

# msgid -> (Indonesian, Arabic)
T = {
    "Game messages": ("Pesan permainan", "رسائل المباراة"),
    "author": ("penulis", "الكاتب"),
    "message": ("pesan", "الرسالة"),
    "written at ply": ("ditulis pada langkah", "كُتبت عند النقلة"),
    "written at": ("ditulis pada", "كُتبت في"),
    "game message": ("pesan permainan", "رسالة مباراة"),
    "game messages": ("pesan permainan", "رسائل المباراة"),
    "Write a message first.": ("Tulis pesan terlebih dahulu.", "اكتب رسالة أولًا."),
    "A message may have at most %(limit)s characters.": (
        "Pesan paling banyak %(limit)s karakter.", "يمكن أن تحتوي الرسالة على %(limit)s حرفًا على الأكثر."),
    "This player does not accept your messages.": (
        "Pemain ini tidak menerima pesan Anda.", "هذا اللاعب لا يقبل رسائلك."),
    "Messages are for games between two players.": (
        "Pesan hanya untuk permainan antara dua pemain.", "الرسائل مخصصة للمباريات بين لاعبَين."),
    "You have written %(limit)s messages in this game within an hour: please wait a little.": (
        "Anda sudah menulis %(limit)s pesan dalam permainan ini dalam satu jam: mohon tunggu sebentar.",
        "لقد كتبت %(limit)s رسالة في هذه المباراة خلال ساعة: يُرجى الانتظار قليلًا."),
    "Messages": ("Pesan", "الرسائل"),
    "Only the players of this game see these messages.": (
        "Hanya para pemain permainan ini yang melihat pesan-pesan ini.",
        "لا يرى هذه الرسائل إلا لاعبا هذه المباراة."),
    "Report this message to staff?": ("Laporkan pesan ini kepada staf?", "هل تريد إبلاغ الطاقم عن هذه الرسالة؟"),
    "Message #%(number)s by %(name)s: “%(text)s”": (
        "Pesan #%(number)s dari %(name)s: “%(text)s”", "الرسالة رقم %(number)s من %(name)s: «%(text)s»"),
    "Report this message": ("Laporkan pesan ini", "أبلغ عن هذه الرسالة"),
    "No messages yet.": ("Belum ada pesan.", "لا توجد رسائل بعد."),
    "Your message": ("Pesan Anda", "رسالتك"),
}
