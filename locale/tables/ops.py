"""Strings of the ops app (health, blocks, reports), templates/ops and the block refusal."""

# msgid -> (Indonesian, Arabic); a plural msgid -> ((Indonesian,), (six Arabic forms)).
T = {
    "Operations and fair play": ("Operasional dan permainan adil", "التشغيل واللعب النظيف"),
    "blocked at": ("diblokir pada", "حُظر في"),
    "You cannot block yourself.": ("Anda tidak bisa memblokir diri sendiri.", "لا يمكنك حظر نفسك."),
    "This player does not accept your challenges.": (
        "Pemain ini tidak menerima tantangan Anda.", "هذا اللاعب لا يقبل تحدياتك."),
    "Report either a player or a game.": (
        "Laporkan seorang pemain atau sebuah permainan.", "أبلغ عن لاعب أو عن مباراة."),
    "Why": ("Alasan", "السبب"),
    "%(count)d report marked.": (
        ("%(count)d laporan ditandai.",),
        ("لم يُعلَّم أي بلاغ (%(count)d).", "عُلِّم بلاغ واحد (%(count)d).", "عُلِّم بلاغان (%(count)d).",
         "عُلِّمت %(count)d بلاغات.", "عُلِّم %(count)d بلاغًا.", "عُلِّم %(count)d بلاغ."),
    ),
    "Mark reviewed": ("Tandai sudah ditinjau", "علِّم كمُراجَع"),
    "Mark dismissed": ("Tandai ditolak", "علِّم كمرفوض"),
    "Choose abuse, suspected engine help, stalling or other.": (
        "Pilih pelecehan, dugaan bantuan mesin, mengulur waktu, atau lainnya.",
        "اختر الإساءة أو الاشتباه في مساعدة محرك أو المماطلة أو غير ذلك."),
    "Say why you report this.": ("Jelaskan alasan Anda melaporkan ini.", "اذكر سبب إبلاغك."),
    "The reason is too long (at most %(limit)s characters).": (
        "Alasannya terlalu panjang (paling banyak %(limit)s karakter).",
        "السبب طويل جدًا (%(limit)s حرفًا على الأكثر)."),
    "You cannot report yourself.": ("Anda tidak bisa melaporkan diri sendiri.", "لا يمكنك الإبلاغ عن نفسك."),
    "You have already reported this today.": (
        "Anda sudah melaporkan ini hari ini.", "لقد أبلغت عن هذا اليوم بالفعل."),
    "This report does not exist.": ("Laporan ini tidak ada.", "هذا البلاغ غير موجود."),
    "Mark a report reviewed or dismissed.": (
        "Tandai laporan sebagai sudah ditinjau atau ditolak.", "علِّم البلاغ كمُراجَع أو كمرفوض."),
    "Only staff review reports.": (
        "Hanya staf yang meninjau laporan.", "لا يراجع البلاغات إلا فريق الإشراف."),
    "What happened": ("Apa yang terjadi", "ماذا حدث"),
    "Reason": ("Alasan", "السبب"),
    "Abuse": ("Pelecehan", "إساءة"),
    "Suspected engine help": ("Dugaan bantuan mesin", "اشتباه في مساعدة محرك"),
    "Stalling": ("Mengulur waktu", "مماطلة"),
    "Other": ("Lainnya", "غير ذلك"),
    "Reviewed": ("Sudah ditinjau", "مُراجَع"),
    "Dismissed": ("Ditolak", "مرفوض"),
    "reported player": ("pemain yang dilaporkan", "اللاعب المُبلَّغ عنه"),
    "reported game": ("permainan yang dilaporkan", "المباراة المُبلَّغ عنها"),
    "kind": ("jenis", "النوع"),
    "reason": ("alasan", "السبب"),
    "reported at": ("dilaporkan pada", "أُبلغ في"),
    "new status": ("status baru", "الحالة الجديدة"),
    "why": ("alasan", "السبب"),
    "at": ("pada", "في"),
    "You unblocked %(name)s.": ("Anda membuka blokir %(name)s.", "ألغيت حظر %(name)s."),
    "You blocked %(name)s: they cannot challenge you.": (
        "Anda memblokir %(name)s: dia tidak bisa menantang Anda.", "حظرت %(name)s: لا يمكنه تحديك."),
    "Choose what happened and say why.": (
        "Pilih apa yang terjadi dan jelaskan alasannya.", "اختر ما حدث واذكر السبب."),
    "Thank you: staff will look at your report.": (
        "Terima kasih: staf akan memeriksa laporan Anda.", "شكرًا لك: سيطّلع فريق الإشراف على بلاغك."),
    "Report this game": ("Laporkan permainan ini", "أبلغ عن هذه المباراة"),
    "Send the report": ("Kirim laporan", "أرسل البلاغ"),
    "Unblock": ("Buka blokir", "إلغاء الحظر"),
    "You blocked this player: they cannot challenge you.": (
        "Anda memblokir pemain ini: dia tidak bisa menantang Anda.", "حظرت هذا اللاعب: لا يمكنه تحديك."),
    "Block": ("Blokir", "حظر"),
    "Players you blocked": ("Pemain yang Anda blokir", "اللاعبون الذين حظرتهم"),
    "Report this player": ("Laporkan pemain ini", "أبلغ عن هذا اللاعب"),
    "Say why; the audit log keeps it with your name and the time.": (
        "Jelaskan alasannya; log audit menyimpannya bersama nama Anda dan waktunya.",
        "اذكر السبب؛ يحفظه سجل التدقيق مع اسمك والوقت."),
    "A player you block cannot challenge you; games already running go on.": (
        "Pemain yang Anda blokir tidak bisa menantang Anda; permainan yang sedang berjalan tetap berlanjut.",
        "لا يمكن للاعب الذي تحظره أن يتحداك؛ وتستمر المباريات الجارية."),
    "You have not blocked anyone.": ("Anda belum memblokir siapa pun.", "لم تحظر أحدًا."),
}
