"""Strings of the api app: authentication, tokens, idempotency and its error messages."""

# msgid -> (Indonesian, Arabic).
T = {
    "The Authorization header must be 'Bearer <token>'.": (
        "Header Authorization harus 'Bearer <token>'.",
        "يجب أن تكون ترويسة Authorization بالشكل 'Bearer <token>'.",
    ),
    "This token is not valid.": ("Token ini tidak sah.", "هذا الرمز غير صالح."),
    "This token is not valid or has been revoked.": (
        "Token ini tidak sah atau sudah dicabut.",
        "هذا الرمز غير صالح أو أُبطل.",
    ),
    "The Idempotency-Key header must be 1 to 255 characters.": (
        "Header Idempotency-Key harus 1 sampai 255 karakter.",
        "يجب أن تكون ترويسة Idempotency-Key من 1 إلى 255 حرفًا.",
    ),
    "This Idempotency-Key was used for a different request.": (
        "Idempotency-Key ini sudah dipakai untuk permintaan lain.",
        "استُخدم مفتاح Idempotency-Key هذا لطلب مختلف.",
    ),
    "Some fields are not valid.": ("Beberapa isian tidak sah.", "بعض الحقول غير صالحة."),
    "name": ("nama", "الاسم"),
    "prefix": ("awalan", "البادئة"),
    "The first characters of the token, to recognise it.": (
        "Karakter pertama token, untuk mengenalinya.",
        "الأحرف الأولى من الرمز، للتعرّف عليه.",
    ),
    "scopes": ("cakupan", "الصلاحيات"),
    "created": ("dibuat", "تاريخ الإنشاء"),
    "last used": ("terakhir dipakai", "آخر استخدام"),
    "revoked": ("dicabut", "مُبطل"),
    "API token": ("Token API", "رمز API"),
    "API tokens": ("Token API", "رموز API"),
    "This token lacks the scope this request needs (read to read, play to act).": (
        "Token ini tidak memiliki cakupan yang dibutuhkan permintaan ini (read untuk membaca, play untuk bertindak).",
        "ينقص هذا الرمز الصلاحية التي يحتاجها هذا الطلب (read للقراءة، وplay للعب).",
    ),
    "Open challenges by others anyone may accept.": (
        "Tantangan terbuka dari orang lain yang boleh diterima siapa saja.",
        "تحديات مفتوحة من الآخرين يمكن لأي شخص قبولها.",
    ),
    "Choose scopes among: %(scopes)s.": ("Pilih cakupan di antara: %(scopes)s.", "اختر الصلاحيات من بين: %(scopes)s."),
    "A token cannot make a token with more scopes than its own.": (
        "Token tidak bisa membuat token dengan cakupan lebih banyak daripada miliknya sendiri.",
        "لا يمكن لرمز أن ينشئ رمزًا بصلاحيات أكثر من صلاحياته.",
    ),
    "You have too many tokens: revoke some first.": (
        "Token Anda terlalu banyak: cabut beberapa terlebih dahulu.",
        "لديك رموز كثيرة جدًا: أبطل بعضها أولًا.",
    ),
    "This account is not active: confirm your email address first.": (
        "Akun ini belum aktif: konfirmasikan dulu alamat email Anda.",
        "هذا الحساب غير مفعَّل: أكِّد بريدك الإلكتروني أولًا.",
    ),
    "The username or password is wrong.": ("Nama pengguna atau kata sandi salah.", "اسم المستخدم أو كلمة المرور غير صحيحة."),
    "You have no such token.": ("Anda tidak punya token seperti itu.", "ليس لديك رمز كهذا."),
    "This password reset link is not valid or has expired.": (
        "Tautan pengaturan ulang kata sandi ini tidak sah atau sudah kedaluwarsa.",
        "رابط إعادة تعيين كلمة المرور هذا غير صالح أو انتهت صلاحيته.",
    ),
    "This game does not exist.": ("Permainan ini tidak ada.", "هذه المباراة غير موجودة."),
    "We have mailed you a link to confirm your address.": (
        "Kami telah mengirimkan tautan untuk mengonfirmasi alamat Anda.",
        "أرسلنا إليك رابطًا لتأكيد عنوانك.",
    ),
    "If an account uses that address, we have mailed it a link.": (
        "Jika ada akun dengan alamat itu, kami telah mengirimkan tautan kepadanya.",
        "إذا كان هناك حساب بهذا العنوان، فقد أرسلنا إليه رابطًا.",
    ),
    "Your password is changed.": ("Kata sandi Anda sudah diganti.", "تم تغيير كلمة مرورك."),
    "This cursor is not valid: use the next or previous link.": (
        "Kursor ini tidak sah: gunakan tautan berikutnya atau sebelumnya.",
        "هذا المؤشر غير صالح: استخدم رابط التالي أو السابق.",
    ),
    "Sign in to list your own games.": (
        "Masuk untuk melihat daftar permainan Anda sendiri.",
        "سجّل الدخول لعرض قائمة مبارياتك.",
    ),
    "This challenge does not exist.": ("Tantangan ini tidak ada.", "هذا التحدي غير موجود."),
    "Not found.": ("Tidak ditemukan.", "غير موجود."),
}
