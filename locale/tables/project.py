"""Project-level strings: maatasite, accounts, the base templates."""

# msgid -> (Indonesian, Arabic). Plural entries: msgid -> ((Indonesian form,), (six Arabic forms)).
T = {
    "Profile": ("Profil", "الملف الشخصي"),
    "Accounts": ("Akun", "الحسابات"),
    "Username": ("Nama pengguna", "اسم المستخدم"),
    "Email address": ("Alamat email", "البريد الإلكتروني"),
    "Password": ("Kata sandi", "كلمة المرور"),
    "Password again": ("Ulangi kata sandi", "أعد كتابة كلمة المرور"),
    "The two passwords differ.": ("Kedua kata sandi berbeda.", "كلمتا المرور مختلفتان."),
    "Please confirm your email address first: follow the link we mailed you.": (
        "Konfirmasikan dulu alamat email Anda: buka tautan yang kami kirimkan.",
        "يرجى تأكيد بريدك الإلكتروني أولًا: اتبع الرابط الذي أرسلناه إليك.",
    ),
    "Send the link again": ("Kirim ulang tautan", "أرسل الرابط مرة أخرى"),
    "Language": ("Bahasa", "اللغة"),
    "Follow my browser": ("Ikuti peramban saya", "حسب المتصفح"),
    "Time zone": ("Zona waktu", "المنطقة الزمنية"),
    "UTC (default)": ("UTC (bawaan)", "UTC (الافتراضي)"),
    "username": ("nama pengguna", "اسم المستخدم"),
    "3 to 30 letters, digits, hyphens or underscores. It appears in your public page's address.": (
        "3 sampai 30 huruf, angka, tanda hubung, atau garis bawah. Muncul di alamat halaman publik Anda.",
        "من 3 إلى 30 حرفًا أو رقمًا أو شرطة أو شرطة سفلية. يظهر في عنوان صفحتك العامة.",
    ),
    "Use 3 to 30 letters (a-z, A-Z), digits, hyphens or underscores.": (
        "Gunakan 3 sampai 30 huruf (a-z, A-Z), angka, tanda hubung, atau garis bawah.",
        "استخدم من 3 إلى 30 حرفًا (a-z، A-Z) أو رقمًا أو شرطة أو شرطة سفلية.",
    ),
    "A user with that username already exists.": (
        "Nama pengguna itu sudah dipakai.",
        "يوجد مستخدم بهذا الاسم بالفعل.",
    ),
    "email address": ("alamat email", "البريد الإلكتروني"),
    "email confirmed": ("email terkonfirmasi", "البريد مؤكَّد"),
    "display name": ("nama tampilan", "الاسم المعروض"),
    # Display names (accounts/names.py; the bot's label lives there with the rule that reserves it)
    "Bot (level %(level)s)": ("Bot (level %(level)s)", "روبوت (المستوى %(level)s)"),
    "display name breaks the rules": ("nama tampilan melanggar aturan", "الاسم المعروض يخالف القواعد"),
    "A display name cannot contain invisible control or formatting characters (such as right-to-left overrides).": (
        "Nama tampilan tidak boleh berisi karakter kontrol atau format yang tak terlihat "
        "(seperti pembalik arah kanan-ke-kiri).",
        "لا يجوز أن يحتوي الاسم المعروض على محارف تحكم أو تنسيق غير مرئية (مثل محارف عكس الاتجاه).",
    ),
    "A display name cannot pose as a bot or as the site's staff: words such as “admin”, “moderator”, “official” and “Bot” are reserved.": (
        "Nama tampilan tidak boleh menyamar sebagai bot atau staf situs: kata seperti “admin”, “staf”, "
        "“resmi” dan “Bot” dicadangkan.",
        "لا يجوز أن ينتحل الاسم المعروض صفة روبوت أو أحد طاقم الموقع: كلمات مثل “مشرف” و“مدير” و“رسمي” "
        "و“روبوت” محجوزة.",
    ),
    "address failing since": ("alamat gagal sejak", "العنوان معطّل منذ"),
    "why the address fails": ("alasan alamat gagal", "سبب تعطّل العنوان"),
    "Hard bounce": ("Pentalan permanen", "ارتداد دائم"),
    "Spam complaint": ("Keluhan spam", "شكوى بريد مزعج"),
    "failure detail": ("rincian kegagalan", "تفاصيل التعطّل"),
    "deleted": ("dihapus", "محذوف"),
    "suspended since": ("ditangguhkan sejak", "موقوف منذ"),
    "suspension reason": ("alasan penangguhan", "سبب الإيقاف"),
    "deleted player": ("pemain terhapus", "لاعب محذوف"),
    "Usernames starting with “deleted-” are reserved.": (
        "Nama pengguna yang diawali “deleted-” sudah dicadangkan.",
        "أسماء المستخدمين التي تبدأ بـ “deleted-” محجوزة."),
    "language": ("bahasa", "اللغة"),
    "Leave empty to follow your browser.": (
        "Kosongkan untuk mengikuti peramban Anda.",
        "اتركه فارغًا لاتباع لغة المتصفح.",
    ),
    "time zone": ("zona waktu", "المنطقة الزمنية"),
    "mail me when it is my turn": ("kirim email saat giliran saya", "راسلني عندما يحين دوري"),
    "mail me when a game ends": ("kirim email saat permainan selesai", "راسلني عندما تنتهي مباراة"),
    "Unknown language.": ("Bahasa tidak dikenal.", "لغة غير معروفة."),
    "Unknown time zone.": ("Zona waktu tidak dikenal.", "منطقة زمنية غير معروفة."),
    "An account with that email address already exists.": (
        "Sudah ada akun dengan alamat email itu.",
        "يوجد حساب بهذا البريد الإلكتروني بالفعل.",
    ),
    "This confirmation link has expired. Ask for a new one.": (
        "Tautan konfirmasi ini sudah kedaluwarsa. Minta tautan baru.",
        "انتهت صلاحية رابط التأكيد هذا. اطلب رابطًا جديدًا.",
    ),
    "This confirmation link is not valid.": (
        "Tautan konfirmasi ini tidak sah.",
        "رابط التأكيد هذا غير صالح.",
    ),
    "This account is disabled.": ("Akun ini dinonaktifkan.", "هذا الحساب معطَّل."),
    "Your email address is confirmed. Welcome, %(name)s!": (
        "Alamat email Anda sudah terkonfirmasi. Selamat datang, %(name)s!",
        "تم تأكيد بريدك الإلكتروني. أهلًا بك يا %(name)s!",
    ),
    "If an unconfirmed account uses that address, we have mailed it a new link.": (
        "Jika ada akun belum terkonfirmasi dengan alamat itu, kami telah mengirimkan tautan baru.",
        "إذا كان هناك حساب غير مؤكَّد بهذا العنوان، فقد أرسلنا إليه رابطًا جديدًا.",
    ),
    "Your profile is saved.": ("Profil Anda tersimpan.", "تم حفظ ملفك الشخصي."),
    "No such player.": ("Pemain tidak ditemukan.", "لا يوجد لاعب بهذا الاسم."),
    "You are logged out. See you at the next move.": (
        "Anda sudah keluar. Sampai jumpa di langkah berikutnya.",
        "لقد سجّلت الخروج. نراك في النقلة القادمة.",
    ),
    "English": ("Inggris", "الإنجليزية"),
    "Indonesian": ("Indonesia", "الإندونيسية"),
    "Arabic": ("Arab", "العربية"),
    "Confirmation failed": ("Konfirmasi gagal", "فشل التأكيد"),
    # One-time links (accounts/tokens.py): the link's page and its button.
    "Your email address is already confirmed. Log in to play.": (
        "Alamat email Anda sudah dikonfirmasi. Masuk untuk bermain.",
        "تم تأكيد بريدك الإلكتروني من قبل. سجّل الدخول لتلعب.",
    ),
    "This link has already been used: %(email)s is your address.": (
        "Tautan ini sudah pernah dipakai: %(email)s adalah alamat Anda.",
        "استُخدم هذا الرابط من قبل: %(email)s هو عنوانك.",
    ),
    "Confirm your email address": ("Konfirmasikan alamat email Anda", "أكّد بريدك الإلكتروني"),
    "Press the button to confirm the address of the account %(name)s and start playing.": (
        "Tekan tombol untuk mengonfirmasi alamat akun %(name)s dan mulai bermain.",
        "اضغط الزر لتأكيد عنوان الحساب %(name)s وابدأ اللعب.",
    ),
    "Confirm my address": ("Konfirmasi alamat saya", "أكّد عنواني"),
    "The link works once.": ("Tautan ini hanya berlaku sekali.", "يعمل الرابط مرة واحدة فقط."),
    "Press the button to use %(new_email)s for your Maatasite account.": (
        "Tekan tombol untuk memakai %(new_email)s untuk akun Maatasite Anda.",
        "اضغط الزر لاستخدام %(new_email)s لحسابك في Maatasite.",
    ),
    "Use this address": ("Pakai alamat ini", "استخدم هذا العنوان"),
    "one-time links used": ("tautan sekali pakai yang dipakai", "الروابط أحادية الاستخدام المستعملة"),
    "Hello %(name)s,": ("Halo %(name)s,", "مرحبًا %(name)s،"),
    "Follow this link to confirm your email address and start playing:": (
        "Buka tautan ini untuk mengonfirmasi alamat email Anda dan mulai bermain:",
        "اتبع هذا الرابط لتأكيد بريدك الإلكتروني والبدء باللعب:",
    ),
    "The link works for %(days)s day.": (
        ("Tautan ini berlaku selama %(days)s hari.",),
        (
            "الرابط صالح لمدة %(days)s يوم.",
            "الرابط صالح لمدة يوم واحد.",
            "الرابط صالح لمدة يومين.",
            "الرابط صالح لمدة %(days)s أيام.",
            "الرابط صالح لمدة %(days)s يومًا.",
            "الرابط صالح لمدة %(days)s يوم.",
        ),
    ),
    "If you did not sign up on Maatasite, ignore this message.": (
        "Jika Anda tidak mendaftar di Maatasite, abaikan pesan ini.",
        "إذا لم تسجّل في Maatasite فتجاهل هذه الرسالة.",
    ),
    "Confirm your Maatasite account": ("Konfirmasikan akun Maatasite Anda", "أكِّد حسابك في Maatasite"),
    "Someone asked to reset your password on Maatasite. To choose a new one, follow this link:": (
        "Seseorang meminta pengaturan ulang kata sandi Anda di Maatasite. Untuk memilih yang baru, buka tautan ini:",
        "طلب أحدهم إعادة تعيين كلمة مرورك في Maatasite. لاختيار كلمة جديدة اتبع هذا الرابط:",
    ),
    "If it was not you, ignore this message: your password stays as it is.": (
        "Jika itu bukan Anda, abaikan pesan ini: kata sandi Anda tetap sama.",
        "إن لم تكن أنت فتجاهل هذه الرسالة: ستبقى كلمة مرورك كما هي.",
    ),
    "Reset your Maatasite password": ("Atur ulang kata sandi Maatasite Anda", "إعادة تعيين كلمة مرورك في Maatasite"),
    "Log in": ("Masuk", "تسجيل الدخول"),
    "Forgot your password?": ("Lupa kata sandi?", "نسيت كلمة المرور؟"),
    "Sign up": ("Daftar", "إنشاء حساب"),
    "Change your password": ("Ganti kata sandi Anda", "غيّر كلمة مرورك"),
    "Change password": ("Ganti kata sandi", "تغيير كلمة المرور"),
    "Password changed": ("Kata sandi diganti", "تم تغيير كلمة المرور"),
    "Back to your profile": ("Kembali ke profil Anda", "العودة إلى ملفك الشخصي"),
    "Reset your password": ("Atur ulang kata sandi", "إعادة تعيين كلمة المرور"),
    "Enter your email address and we will mail you a link to choose a new password.": (
        "Masukkan alamat email Anda dan kami akan mengirimkan tautan untuk memilih kata sandi baru.",
        "أدخل بريدك الإلكتروني وسنرسل إليك رابطًا لاختيار كلمة مرور جديدة.",
    ),
    "Send me the link": ("Kirimkan tautannya", "أرسل لي الرابط"),
    "Choose a new password": ("Pilih kata sandi baru", "اختر كلمة مرور جديدة"),
    "This link is not valid any more: it may have been used already.": (
        "Tautan ini sudah tidak berlaku: mungkin sudah pernah dipakai.",
        "هذا الرابط لم يعد صالحًا: ربما استُخدم من قبل.",
    ),
    "Ask for a new one": ("Minta yang baru", "اطلب رابطًا جديدًا"),
    "Check your mail": ("Periksa email Anda", "تحقّق من بريدك"),
    "If an account uses that address, we have mailed it a link to choose a new password.": (
        "Jika ada akun dengan alamat itu, kami telah mengirimkan tautan untuk memilih kata sandi baru.",
        "إذا كان هناك حساب بهذا العنوان، فقد أرسلنا إليه رابطًا لاختيار كلمة مرور جديدة.",
    ),
    "Playing since %(date)s.": ("Bermain sejak %(date)s.", "يلعب منذ %(date)s."),
    "Your profile": ("Profil Anda", "ملفك الشخصي"),
    "Signed in as %(username)s (%(email)s).": (
        "Masuk sebagai %(username)s (%(email)s).",
        "مسجَّل الدخول باسم %(username)s (%(email)s).",
    ),
    "Your public page": ("Halaman publik Anda", "صفحتك العامة"),
    "Save": ("Simpan", "حفظ"),
    "Enter the address you signed up with and we will mail you a new confirmation link.": (
        "Masukkan alamat yang Anda pakai saat mendaftar dan kami akan mengirimkan tautan konfirmasi baru.",
        "أدخل العنوان الذي سجّلت به وسنرسل إليك رابط تأكيد جديدًا.",
    ),
    "Send": ("Kirim", "إرسال"),
    "Create my account": ("Buat akun saya", "أنشئ حسابي"),
    "Already have an account?": ("Sudah punya akun?", "لديك حساب بالفعل؟"),
    "We have sent you a link. Follow it to confirm your email address and start playing.": (
        "Kami telah mengirimkan tautan. Buka tautan itu untuk mengonfirmasi alamat email Anda dan mulai bermain.",
        "أرسلنا إليك رابطًا. اتبعه لتأكيد بريدك الإلكتروني والبدء باللعب.",
    ),
    "No mail after a few minutes?": ("Belum ada email setelah beberapa menit?", "لم يصلك البريد بعد بضع دقائق؟"),
    "Maatasite": ("Maatasite", "Maatasite"),
    "Skip to content": ("Langsung ke isi", "انتقل إلى المحتوى"),
    "Main": ("Utama", "الرئيسية"),
    "Menu": ("Menu", "القائمة"),
    "Home": ("Beranda", "الرئيسية"),
    "Lobby": ("Lobi", "الردهة"),
    "Log out": ("Keluar", "تسجيل الخروج"),
    "Go": ("Pilih", "انتقال"),
    "Mail and vacation": ("Email dan cuti", "البريد والإجازة"),
    "Onitama and Maatatahay by correspondence: one move a day.": (
        "Onitama dan Maatatahay lewat korespondensi: satu langkah sehari.",
        "Onitama وMaatatahay بالمراسلة: نقلة واحدة في اليوم.",
    ),
    # accounts: correspondence preferences on the profile
    "turn mail": ("email giliran", "رسائل الدور"),
    "One mail per turn": ("Satu email per giliran", "رسالة لكل دور"),
    "One daily digest": ("Satu ringkasan harian", "ملخص يومي واحد"),
    "digest hour": ("jam ringkasan", "ساعة الملخص"),
    "The hour of the day (your time zone) at which the digest goes out.": (
        "Jam dalam sehari (zona waktu Anda) saat ringkasan dikirim.",
        "ساعة اليوم (بمنطقتك الزمنية) التي يُرسل فيها الملخص.",
    ),
    "remind me when my time runs short": ("ingatkan saya saat waktu saya hampir habis", "ذكّرني عندما يوشك وقتي على النفاد"),
    "night starts at": ("malam dimulai pukul", "يبدأ الليل الساعة"),
    "A deadline falling in your night moves to its end. Leave empty for none.": (
        "Tenggat yang jatuh pada malam Anda dipindahkan ke akhir malam. Kosongkan jika tidak ada.",
        "الموعد النهائي الذي يقع في ليلك يُنقل إلى نهايته. اتركه فارغًا إن لم يكن لك ليل.",
    ),
    "night ends at": ("malam berakhir pukul", "ينتهي الليل الساعة"),
    "on vacation since": ("cuti sejak", "في إجازة منذ"),
    "Set by correspondence.services while a vacation runs.": (
        "Diisi oleh correspondence.services selama cuti berlangsung.",
        "تضبطه correspondence.services أثناء الإجازة.",
    ),
    # Rate limits of the forms (maatasite/ratelimits.py, accounts/ratelimits.py).
    "Too many attempts. Please try again in %(wait)s.": (
        "Terlalu banyak percobaan. Silakan coba lagi dalam %(wait)s.",
        "محاولات كثيرة جدًا. يرجى المحاولة مرة أخرى بعد %(wait)s.",
    ),
    "Too many failed sign-ins to this account from your address. Please try again in %(wait)s.": (
        "Terlalu banyak kegagalan masuk ke akun ini dari alamat Anda. Silakan coba lagi dalam %(wait)s.",
        "محاولات دخول فاشلة كثيرة جدًا إلى هذا الحساب من عنوانك. يرجى المحاولة مرة أخرى بعد %(wait)s.",
    ),
    "We have already mailed this address several times. Please check its inbox (and spam folder), "
    "or try again in %(wait)s.": (
        "Kami sudah beberapa kali mengirim email ke alamat ini. Silakan periksa kotak masuknya (dan folder spam), "
        "atau coba lagi dalam %(wait)s.",
        "لقد راسلنا هذا العنوان عدة مرات بالفعل. يرجى التحقق من صندوق الوارد (ومجلد الرسائل غير المرغوب فيها)، "
        "أو المحاولة مرة أخرى بعد %(wait)s.",
    ),
    # Bodies and errors under /api/ (maatasite/json_body.py, maatasite/json_errors.py).
    "The body is not UTF-8 text.": ("Isi permintaan bukan teks UTF-8.", "محتوى الطلب ليس نصًا بترميز UTF-8."),
    "The JSON body is nested too deeply (at most %(depth)d levels).": (
        "Isi JSON bersarang terlalu dalam (paling banyak %(depth)d tingkat).",
        "محتوى JSON متداخل بعمق زائد (%(depth)d مستوى على الأكثر).",
    ),
    "The body is not valid JSON: %(error)s": (
        "Isi permintaan bukan JSON yang valid: %(error)s",
        "محتوى الطلب ليس JSON صالحًا: %(error)s",
    ),
    "The request could not be read.": ("Permintaan tidak dapat dibaca.", "تعذرت قراءة الطلب."),
    "You do not have permission to perform this action.": (
        "Anda tidak memiliki izin untuk melakukan tindakan ini.",
        "ليس لديك إذن للقيام بهذا الإجراء.",
    ),
    "This method is not allowed here.": ("Metode ini tidak diizinkan di sini.", "هذه الطريقة غير مسموح بها هنا."),
    "The request body is too large.": ("Isi permintaan terlalu besar.", "محتوى الطلب كبير جدًا."),
    "The request body is too large (at most %(size)d bytes).": (
        "Isi permintaan terlalu besar (paling banyak %(size)d byte).",
        "محتوى الطلب كبير جدًا (%(size)d بايت على الأكثر).",
    ),
    "Something went wrong on our side. It has been logged; please try again later.": (
        "Terjadi kesalahan di pihak kami. Kesalahan ini sudah dicatat; silakan coba lagi nanti.",
        "حدث خطأ من جهتنا. تم تسجيله؛ يرجى المحاولة مرة أخرى لاحقًا.",
    ),
    "Error": ("Kesalahan", "خطأ"),
    "The CSRF check failed: %(reason)s": ("Pemeriksaan CSRF gagal: %(reason)s", "فشل فحص CSRF: %(reason)s"),
}
