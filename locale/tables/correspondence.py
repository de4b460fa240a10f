"""Strings of the correspondence app and its mail: turn mail, reminders, digests, vacations, calendar."""

# msgid -> (Indonesian, Arabic). Plural entries: msgid -> ((Indonesian form,), (six Arabic forms)).
T = {
    "Correspondence": ("Korespondensi", "المراسلة"),
    "Maatasite move deadlines": ("Tenggat langkah Maatasite", "مواعيد النقلات في Maatasite"),
    "Your move: %(game)s #%(id)s against %(opponent)s": (
        "Giliran Anda: %(game)s #%(id)s melawan %(opponent)s",
        "دورك: %(game)s #%(id)s ضد %(opponent)s",
    ),
    "%(opponent)s to move: %(game)s #%(id)s": (
        "Giliran %(opponent)s: %(game)s #%(id)s",
        "دور %(opponent)s: %(game)s #%(id)s",
    ),
    "Unknown preference.": ("Preferensi tidak dikenal.", "تفضيل غير معروف."),
    "This link is not valid.": ("Tautan ini tidak sah.", "هذا الرابط غير صالح."),
    "Choose a whole number of days, at least one.": (
        "Pilih jumlah hari berupa bilangan bulat, paling sedikit satu.",
        "اختر عددًا صحيحًا من الأيام، يومًا واحدًا على الأقل.",
    ),
    "You are already on vacation.": ("Anda sudah sedang cuti.", "أنت في إجازة بالفعل."),
    "You have %(hours)s hours of vacation left.": (
        "Sisa cuti Anda %(hours)s jam.",
        "تبقّى لك من الإجازة %(hours)s ساعة.",
    ),
    "You are not on vacation.": ("Anda tidak sedang cuti.", "أنت لست في إجازة."),
    "None": ("Tidak ada", "لا شيء"),
    "Night starts at": ("Malam dimulai pukul", "يبدأ الليل الساعة"),
    "Night ends at": ("Malam berakhir pukul", "ينتهي الليل الساعة"),
    "Digest hour": ("Jam ringkasan", "ساعة الملخص"),
    "Give both ends of your night, or neither.": (
        "Isi awal dan akhir malam Anda, atau kosongkan keduanya.",
        "حدّد بداية ليلك ونهايته معًا، أو لا تحدّد أيًّا منهما.",
    ),
    "Days": ("Hari", "الأيام"),
    "vacation left (hours)": ("sisa cuti (jam)", "الإجازة المتبقية (بالساعات)"),
    "First day of the last month credited.": (
        "Hari pertama bulan terakhir yang sudah dikreditkan.",
        "اليوم الأول من آخر شهر أُضيف رصيده.",
    ),
    "Your mail settings are saved.": ("Pengaturan email Anda tersimpan.", "تم حفظ إعدادات بريدك."),
    "Your vacation has started: your clocks stand still.": (
        "Cuti Anda sudah dimulai: jam Anda berhenti.",
        "بدأت إجازتك: ساعاتك متوقفة.",
    ),
    "Welcome back: your clocks run again.": (
        "Selamat datang kembali: jam Anda berjalan lagi.",
        "أهلًا بعودتك: ساعاتك تعمل من جديد.",
    ),
    "Unknown action.": ("Tindakan tidak dikenal.", "إجراء غير معروف."),
    "This calendar address is not valid (it may have been replaced).": (
        "Alamat kalender ini tidak sah (mungkin sudah diganti).",
        "عنوان التقويم هذا غير صالح (ربما استُبدل).",
    ),
    "No message was given.": ("Tidak ada pesan yang diberikan.", "لم تُرسل أي رسالة."),
    'Your clock is running and you get no mail about your games. <a href="%(settings_url)s">Mail settings</a>': (
        'Jam Anda berjalan dan Anda tidak menerima email tentang permainan Anda. <a href="%(settings_url)s">Pengaturan email</a>',
        'ساعتك تعمل ولا يصلك أي بريد عن مبارياتك. <a href="%(settings_url)s">إعدادات البريد</a>',
    ),
    "%(player)s is on vacation until %(until)s (UTC): their clock stands still.": (
        "%(player)s sedang cuti hingga %(until)s (UTC): jamnya berhenti.",
        "%(player)s في إجازة حتى %(until)s (UTC): ساعته متوقفة.",
    ),
    "%(player)s is on vacation until %(until)s (UTC); this game does not stop clocks for vacations.": (
        "%(player)s sedang cuti hingga %(until)s (UTC); permainan ini tidak menghentikan jam selama cuti.",
        "%(player)s في إجازة حتى %(until)s (UTC)؛ هذه المباراة لا توقف الساعات أثناء الإجازات.",
    ),
    "Please move before %(deadline)s (%(time_zone)s).": (
        "Silakan melangkah sebelum %(deadline)s (%(time_zone)s).",
        "يرجى اللعب قبل %(deadline)s (%(time_zone)s).",
    ),
    "Played:": ("Dimainkan:", "لُعب:"),
    "This revealed:": ("Yang terungkap:", "كُشف بذلك:"),
    "Not played: %(error)s": ("Tidak dimainkan: %(error)s", "لم يُلعب: %(error)s"),
    "This reply address was already used: nothing was played. Use the address of the latest mail.": (
        "Alamat balasan ini sudah pernah dipakai: tidak ada yang dimainkan. Gunakan alamat dari email terbaru.",
        "عنوان الرد هذا استُخدم من قبل: لم يُلعب شيء. استخدم عنوان أحدث رسالة.",
    ),
    "The game has moved on since that mail: nothing was played.": (
        "Permainan sudah berlanjut sejak email itu: tidak ada yang dimainkan.",
        "تقدّمت المباراة منذ تلك الرسالة: لم يُلعب شيء.",
    ),
    "This game is over: nothing was played.": (
        "Permainan ini sudah selesai: tidak ada yang dimainkan.",
        "انتهت هذه المباراة: لم يُلعب شيء.",
    ),
    "It is not your turn: nothing was played.": (
        "Sekarang bukan giliran Anda: tidak ada yang dimainkan.",
        "ليس دورك: لم يُلعب شيء.",
    ),
    "Your reply held no decision: nothing was played.": (
        "Balasan Anda tidak berisi keputusan: tidak ada yang dimainkan.",
        "لم يتضمن ردك أي قرار: لم يُلعب شيء.",
    ),
    "Your legal decisions now:": ("Keputusan sah Anda sekarang:", "قراراتك المسموحة الآن:"),
    "It is still your turn: answer this mail with your next decisions.": (
        "Masih giliran Anda: balas email ini dengan keputusan berikutnya.",
        "ما زال الدور دورك: أجب على هذه الرسالة بقراراتك التالية.",
    ),
    "It is your turn in %(game_name)s #%(id)s against %(opponent)s.": (
        "Giliran Anda dalam %(game_name)s #%(id)s melawan %(opponent)s.",
        "حان دورك في %(game_name)s #%(id)s ضد %(opponent)s.",
    ),
    "Your time to move in %(game_name)s #%(id)s against %(opponent)s is running out.": (
        "Waktu Anda untuk melangkah dalam %(game_name)s #%(id)s melawan %(opponent)s hampir habis.",
        "وقتك للعب في %(game_name)s #%(id)s ضد %(opponent)s ينفد.",
    ),
    "%(game_name)s #%(id)s is over.": ("%(game_name)s #%(id)s sudah selesai.", "انتهت %(game_name)s #%(id)s."),
    "The game ended in a draw.": ("Permainan berakhir remis.", "انتهت المباراة بالتعادل."),
    "You won.": ("Anda menang.", "لقد فزت."),
    "You lost.": ("Anda kalah.", "لقد خسرت."),
    "The current position": ("Posisi saat ini", "الوضع الحالي"),
    "Open the game": ("Buka permainan", "افتح المباراة"),
    "Or answer this mail: write your decisions, one per line, in move text (as on the game page). They are played in order until one reveals something or your turn ends.": (
        "Atau balas email ini: tulis keputusan Anda, satu per baris, dalam teks langkah (seperti di halaman permainan). Keputusan dimainkan berurutan sampai ada yang mengungkap sesuatu atau giliran Anda berakhir.",
        "أو أجب على هذه الرسالة: اكتب قراراتك، واحدًا في كل سطر، بنص النقلات (كما في صفحة المباراة). تُلعب بالترتيب حتى يكشف أحدها شيئًا أو ينتهي دورك.",
    ),
    "No more mail of this kind": ("Jangan kirim email seperti ini lagi", "لا مزيد من هذا النوع من الرسائل"),
    "The seed of the game is now revealed on the game page, so you can check the deal.": (
        "Benih permainan kini ditampilkan di halaman permainan, sehingga Anda bisa memeriksa pembagiannya.",
        "كُشفت بذرة المباراة الآن في صفحتها، فيمكنك التحقق من التوزيع.",
    ),
    "Open the game:": ("Buka permainan:", "افتح المباراة:"),
    "No more mail of this kind:": ("Jangan kirim email seperti ini lagi:", "لا مزيد من هذا النوع من الرسائل:"),
    "Your turn in %(game_name)s #%(id)s": ("Giliran Anda dalam %(game_name)s #%(id)s", "دورك في %(game_name)s #%(id)s"),
    "Time is running out in %(game_name)s #%(id)s": (
        "Waktu hampir habis dalam %(game_name)s #%(id)s",
        "الوقت ينفد في %(game_name)s #%(id)s",
    ),
    "Last hours to move in %(game_name)s #%(id)s": (
        "Jam-jam terakhir untuk melangkah dalam %(game_name)s #%(id)s",
        "الساعات الأخيرة للعب في %(game_name)s #%(id)s",
    ),
    "%(game_name)s #%(id)s is over": ("%(game_name)s #%(id)s sudah selesai", "انتهت %(game_name)s #%(id)s"),
    "These games are waiting for your move:": (
        "Permainan berikut menunggu langkah Anda:",
        "هذه المباريات بانتظار نقلتك:",
    ),
    "%(game_name)s #%(id)s against %(opponent)s": (
        "%(game_name)s #%(id)s melawan %(opponent)s",
        "%(game_name)s #%(id)s ضد %(opponent)s",
    ),
    "move before %(deadline)s": ("melangkah sebelum %(deadline)s", "العب قبل %(deadline)s"),
    "%(left)s left": ("sisa %(left)s", "يتبقى %(left)s"),
    "clock stopped": ("jam berhenti", "الساعة متوقفة"),
    "No more turn mail": ("Jangan kirim email giliran lagi", "لا مزيد من رسائل الدور"),
    "Reply with your decisions to:": ("Balas dengan keputusan Anda ke:", "أرسل قراراتك ردًّا إلى:"),
    "No more turn mail:": ("Jangan kirim email giliran lagi:", "لا مزيد من رسائل الدور:"),
    "One game is waiting for your move": (
        ("%(counter)s permainan menunggu langkah Anda",),
        (
            "لا توجد مباريات بانتظار نقلتك",
            "مباراة واحدة بانتظار نقلتك",
            "مباراتان بانتظار نقلتك",
            "%(counter)s مباريات بانتظار نقلتك",
            "%(counter)s مباراة بانتظار نقلتك",
            "%(counter)s مباراة بانتظار نقلتك",
        ),
    ),
    "Played in %(game_name)s #%(id)s": ("Dimainkan dalam %(game_name)s #%(id)s", "لُعب في %(game_name)s #%(id)s"),
    "Nothing was played in %(game_name)s #%(id)s": (
        "Tidak ada yang dimainkan dalam %(game_name)s #%(id)s",
        "لم يُلعب شيء في %(game_name)s #%(id)s",
    ),
    "%(name)s is on vacation until %(end)s (%(time_zone)s). Their clock stands still in your games where vacations are allowed:": (
        "%(name)s sedang cuti hingga %(end)s (%(time_zone)s). Jamnya berhenti dalam permainan Anda yang mengizinkan cuti:",
        "%(name)s في إجازة حتى %(end)s (%(time_zone)s). ساعته متوقفة في مبارياتك التي تسمح بالإجازات:",
    ),
    "%(name)s is on vacation": ("%(name)s sedang cuti", "%(name)s في إجازة"),
    "Mail, night and vacation": ("Email, malam, dan cuti", "البريد والليل والإجازة"),
    "You get no mail about your games: keep an eye on your clocks.": (
        "Anda tidak menerima email tentang permainan Anda: perhatikan jam Anda.",
        "لا يصلك بريد عن مبارياتك: راقب ساعاتك.",
    ),
    "Vacation": ("Cuti", "الإجازة"),
    "Vacation left: %(hours)s hours.": ("Sisa cuti: %(hours)s jam.", "الإجازة المتبقية: %(hours)s ساعة."),
    "You are on vacation until %(end)s (UTC).": (
        "Anda sedang cuti hingga %(end)s (UTC).",
        "أنت في إجازة حتى %(end)s (UTC).",
    ),
    "End my vacation now": ("Akhiri cuti saya sekarang", "أنهِ إجازتي الآن"),
    "Start a vacation": ("Mulai cuti", "ابدأ إجازة"),
    "Calendar": ("Kalender", "التقويم"),
    "Your private calendar address (keep it secret):": (
        "Alamat kalender pribadi Anda (rahasiakan):",
        "عنوان تقويمك الخاص (احتفظ به سرًّا):",
    ),
    "Replace the address": ("Ganti alamatnya", "استبدل العنوان"),
    "Turn the calendar off": ("Matikan kalender", "أوقف التقويم"),
    "Make a calendar address": ("Buat alamat kalender", "أنشئ عنوان تقويم"),
    "Unsubscribe": ("Berhenti berlangganan", "إلغاء الاشتراك"),
    "This unsubscribe link is not valid.": (
        "Tautan berhenti berlangganan ini tidak sah.",
        "رابط إلغاء الاشتراك هذا غير صالح.",
    ),
    "You will get no more turn mail (nor the digest).": (
        "Anda tidak akan lagi menerima email giliran (maupun ringkasan).",
        "لن تصلك بعد الآن رسائل الدور (ولا الملخص).",
    ),
    "You will get no more reminders.": ("Anda tidak akan lagi menerima pengingat.", "لن تصلك تذكيرات بعد الآن."),
    "You will get no more mail when a game ends.": (
        "Anda tidak akan lagi menerima email saat permainan berakhir.",
        "لن يصلك بريد بعد الآن عند انتهاء مباراة.",
    ),
    "You can turn it on again in your mail settings.": (
        "Anda bisa menyalakannya lagi di pengaturan email.",
        "يمكنك تشغيله مرة أخرى من إعدادات البريد.",
    ),
    "Stop the mail telling you it is your turn (and the digest)?": (
        "Hentikan email yang memberi tahu bahwa giliran Anda (dan ringkasannya)?",
        "إيقاف الرسائل التي تخبرك بأن الدور دورك (والملخص)؟",
    ),
    "Stop the reminders when your time runs short?": (
        "Hentikan pengingat saat waktu Anda hampir habis?",
        "إيقاف التذكيرات عندما يوشك وقتك على النفاد؟",
    ),
    "Stop the mail when a game ends?": (
        "Hentikan email saat permainan berakhir?",
        "إيقاف البريد عند انتهاء مباراة؟",
    ),
    # Bounces and complaints (correspondence/bounces.py, accounts: failing addresses and address change)
    "The body is not valid JSON.": ("Isi permintaan bukan JSON yang sah.", "محتوى الطلب ليس JSON صالحًا."),
    "Send one event or a list of 1 to %(max)s events.": (
        "Kirim satu kejadian atau daftar berisi 1 sampai %(max)s kejadian.",
        "أرسل حدثًا واحدًا أو قائمة من 1 إلى %(max)s حدث.",
    ),
    "Event %(index)s must have an email address and the type bounce (hard or soft) or complaint.": (
        "Kejadian %(index)s harus memiliki alamat email dan jenis bounce (hard atau soft) atau complaint.",
        "يجب أن يحتوي الحدث %(index)s على عنوان بريد إلكتروني والنوع bounce (hard أو soft) أو complaint.",
    ),
    "Mail to %(email)s bounced, so we send it nothing more. <a href=\"%(fix_url)s\">Fix your address</a>.": (
        "Email ke %(email)s terpental, jadi kami tidak mengirim apa pun lagi ke sana. "
        "<a href=\"%(fix_url)s\">Perbaiki alamat Anda</a>.",
        "ارتدّ البريد المرسل إلى %(email)s، لذا لن نرسل إليه شيئًا بعد الآن. "
        "<a href=\"%(fix_url)s\">أصلح عنوانك</a>.",
    ),
    "Mail to %(email)s was marked as spam, so we send it nothing more and your game mail is off. "
    "<a href=\"%(fix_url)s\">Fix your address</a>, then turn mail on again.": (
        "Email ke %(email)s ditandai sebagai spam, jadi kami tidak mengirim apa pun lagi ke sana dan email "
        "permainan Anda dimatikan. <a href=\"%(fix_url)s\">Perbaiki alamat Anda</a>, lalu nyalakan lagi emailnya.",
        "وُسم البريد المرسل إلى %(email)s بأنه رسائل مزعجة، لذا لن نرسل إليه شيئًا بعد الآن وأُوقف بريد "
        "مبارياتك. <a href=\"%(fix_url)s\">أصلح عنوانك</a>، ثم شغّل البريد من جديد.",
    ),
    "Change your email address": ("Ubah alamat email Anda", "غيّر عنوان بريدك الإلكتروني"),
    "New email address": ("Alamat email baru", "عنوان البريد الإلكتروني الجديد"),
    "Your address is %(email)s.": ("Alamat Anda %(email)s.", "عنوانك هو %(email)s."),
    "Mail to it fails: give a new address, or the same one again once its mailbox works.": (
        "Email ke alamat itu gagal: berikan alamat baru, atau alamat yang sama lagi setelah kotak suratnya berfungsi.",
        "البريد المرسل إليه يفشل: أدخل عنوانًا جديدًا، أو العنوان نفسه مرة أخرى بعد أن يعمل صندوق بريده.",
    ),
    "We mail a link to the new address; your address changes when you follow it.": (
        "Kami mengirim tautan ke alamat baru; alamat Anda berubah saat Anda membukanya.",
        "نرسل رابطًا إلى العنوان الجديد؛ يتغيّر عنوانك عندما تتبعه.",
    ),
    "Send the link": ("Kirim tautan", "أرسل الرابط"),
    "Your password is not correct.": ("Kata sandi Anda salah.", "كلمة المرور غير صحيحة."),
    "This is already your address.": ("Ini sudah alamat Anda.", "هذا هو عنوانك بالفعل."),
    "We have mailed a link to %(email)s: follow it to use that address.": (
        "Kami telah mengirim tautan ke %(email)s: buka tautan itu untuk memakai alamat tersebut.",
        "أرسلنا رابطًا إلى %(email)s: اتبعه لاستخدام هذا العنوان.",
    ),
    "Your email address is changed.": ("Alamat email Anda telah diubah.", "تم تغيير عنوان بريدك الإلكتروني."),
    "Confirm your new Maatasite address": (
        "Konfirmasikan alamat Maatasite baru Anda",
        "أكّد عنوانك الجديد في Maatasite",
    ),
    "Follow this link to use %(new_email)s for your Maatasite account:": (
        "Buka tautan ini untuk memakai %(new_email)s pada akun Maatasite Anda:",
        "اتبع هذا الرابط لاستخدام %(new_email)s لحسابك في Maatasite:",
    ),
    "If you did not ask for this, ignore this message: your address stays as it is.": (
        "Jika Anda tidak memintanya, abaikan pesan ini: alamat Anda tetap seperti semula.",
        "إذا لم تطلب هذا، فتجاهل هذه الرسالة: يبقى عنوانك كما هو.",
    ),
}
