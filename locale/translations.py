"""Translations of the project-level strings (maatasite, accounts, base templates).

Fill the .po files from this table and compile them:
    .venv/bin/python manage.py makemessages -l id -l ar --ignore='.venv/*' --ignore='games/*' \
        --ignore='engine/*' --ignore='templates/games/*' --ignore='tests/*' --ignore='bench/*'
    .venv/bin/python locale/translations.py
    for l in id ar; do msgfmt --check -o locale/$l/LC_MESSAGES/django.mo locale/$l/LC_MESSAGES/django.po; done
The compiled .mo files are committed, so running the site needs no gettext tools.
"""
import ast
import re
from pathlib import Path

HERE = Path(__file__).resolve().parent

# msgid -> (Indonesian, Arabic). Plural entries: msgid -> ((id forms...), (ar forms x6)).
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
    "Onitama and Maatatahay by correspondence: one move a day.": (
        "Onitama dan Maatatahay lewat korespondensi: satu langkah sehari.",
        "أونيتاما وماتاتاهاي بالمراسلة: نقلة واحدة في اليوم.",
    ),
}

STRING = re.compile(r'"(?:[^"\\]|\\.)*"')


def quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def fill(language: str, index: int) -> list[str]:
    path = HERE / language / "LC_MESSAGES" / "django.po"
    blocks = path.read_text(encoding="utf-8").split("\n\n")
    missing = []
    out = [_header(blocks[0], language)]
    for block in blocks[1:]:
        msgid = _field(block, "msgid")
        plural = "msgid_plural" in block
        entry = T.get(msgid)
        if entry is None:
            missing.append(msgid)
            out.append(block)
            continue
        head = _before_msgstr(block).replace("#, fuzzy\n", "")
        value = entry[index]
        if plural:
            forms = value
            head += "\n" + "\n".join(f"msgstr[{n}] {quote(form)}" for n, form in enumerate(forms))
        else:
            head += "\nmsgstr " + quote(value)
        out.append(head)
    text = "\n\n".join(out)
    if not text.endswith("\n"):
        text += "\n"
    path.write_text(text, encoding="utf-8")
    return missing


def _header(block: str, language: str) -> str:
    block = block.replace("#, fuzzy\n", "")
    block = re.sub(r"^# SOME DESCRIPTIVE TITLE.*?\n#\n", "# Maatasite translations.\n#\n", block, flags=re.S)
    block = block.replace("PACKAGE VERSION", "Maatasite")
    block = block.replace('"Language: \\n"', f'"Language: {language}\\n"')
    block = re.sub(r'"PO-Revision-Date: .*?\\n"', lambda m: '"PO-Revision-Date: 2026-11-29 13:00+0000\\n"', block)
    block = block.replace("FULL NAME <EMAIL@ADDRESS>", "Maatasite team")
    block = block.replace("LANGUAGE <LL@li.org>", "Maatasite team")
    return block


def _before_msgstr(block: str) -> str:
    return block.split("\nmsgstr", 1)[0]


def _field(block: str, name: str) -> str:
    match = re.search(rf"^{name} ((?:\".*\"\n?)+)", block, re.M)
    return "".join(ast.literal_eval(s) for s in STRING.findall(match.group(1))) if match else ""


if __name__ == "__main__":
    for index, language in enumerate(("id", "ar")):
        for msgid in fill(language, index):
            print(f"{language}: no translation for {msgid!r}")
